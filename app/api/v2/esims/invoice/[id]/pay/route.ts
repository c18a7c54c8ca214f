import { merchantRoute } from "@/lib/api-v2/route";
import { payInvoiceHandler } from "@/lib/merchant-invoices/handlers";

export const dynamic = "force-dynamic";

export const POST = merchantRoute("POST /esims/invoice/{id}/pay", payInvoiceHandler);
