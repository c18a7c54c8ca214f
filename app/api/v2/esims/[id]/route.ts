import { merchantRoute } from "@/lib/api-v2/route";
import { getEsimHandler } from "@/lib/merchant-invoices/handlers";

export const dynamic = "force-dynamic";

export const GET = merchantRoute("GET /esims/{id}", getEsimHandler);
