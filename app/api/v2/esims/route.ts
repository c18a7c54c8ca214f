import { merchantRoute } from "@/lib/http/merchant/route";
import { createInvoiceHandler, listEsimsHandler } from "@/lib/http/merchant/handlers";

export const dynamic = "force-dynamic";

export const GET = merchantRoute("GET /esims", listEsimsHandler);
export const POST = merchantRoute("POST /esims", createInvoiceHandler("esim"));
