import { merchantRoute } from "@/lib/api-v2/route";
import { createInvoiceHandler, listEsimsHandler } from "@/lib/merchant-invoices/handlers";

export const dynamic = "force-dynamic";

export const GET = merchantRoute("GET /esims", listEsimsHandler);
export const POST = merchantRoute("POST /esims", createInvoiceHandler("esim"));
