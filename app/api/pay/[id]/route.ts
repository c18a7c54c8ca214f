import { payPageInvoice } from "@/lib/http/merchant/pay-page";

export const dynamic = "force-dynamic";

export const GET = payPageInvoice;
