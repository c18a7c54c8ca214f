import { merchantRoute } from "@/lib/api-v2/route";
import { createInvoiceHandler, listInvoicesHandler } from "@/lib/merchant-invoices/handlers";

export const dynamic = "force-dynamic";

export const GET = merchantRoute("GET /invoices", listInvoicesHandler());
export const POST = merchantRoute("POST /invoices", createInvoiceHandler());
