import { X402_HANDLERS } from "@/lib/agents/x402/handlers";
import { x402Preflight } from "@/lib/api/x402/with-x402-fee";

export const dynamic = "force-dynamic";

export const GET = X402_HANDLERS.esimSearch;

export const OPTIONS = x402Preflight;
