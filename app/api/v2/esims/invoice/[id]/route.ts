import { merchantRoute } from "@/lib/http/merchant/route";
import { getInvoiceHandler } from "@/lib/http/merchant/handlers";

export const dynamic = "force-dynamic";

export const GET = merchantRoute("GET /esims/invoice/{id}", getInvoiceHandler("esim"));
