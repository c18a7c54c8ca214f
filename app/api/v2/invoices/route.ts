import { merchantRoute } from "@/lib/http/merchant/route";
import { createInvoiceHandler, listInvoicesHandler } from "@/lib/http/merchant/handlers";

export const dynamic = "force-dynamic";

export const GET = merchantRoute("GET /invoices", listInvoicesHandler());
export const POST = merchantRoute("POST /invoices", createInvoiceHandler());
