import { x402Preflight } from "@/lib/http/x402/with-x402-fee";
import { x402SearchRoute } from "@/lib/http/x402/x402-search";

export const dynamic = "force-dynamic";

export const GET = x402SearchRoute("gift_card");

export const OPTIONS = x402Preflight;
