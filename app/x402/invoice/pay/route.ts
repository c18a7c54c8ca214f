import { kickWorker } from "@/lib/fulfilment";
import { payInvoice } from "@/lib/http/x402/x402-pay";
import { x402Preflight } from "@/lib/http/x402/with-x402-fee";

export const dynamic = "force-dynamic";

export const POST = (req: Request) => payInvoice(req, kickWorker);

export const OPTIONS = x402Preflight;
