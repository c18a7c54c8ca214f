import { getBatchHandler } from "@/lib/http/merchant/gift-card-batches";
import { merchantRoute } from "@/lib/http/merchant/route";

export const dynamic = "force-dynamic";

/** One batch with its cards and their codes (its merchant only). */
export const GET = merchantRoute("GET /gift-card-batches/{id}", getBatchHandler);
