import { merchantRoute } from "@/lib/http/merchant/route";
import { payInvoiceHandler } from "@/lib/http/merchant/handlers";

export const dynamic = "force-dynamic";

export const POST = merchantRoute("POST /invoices/{id}/pay", payInvoiceHandler());
