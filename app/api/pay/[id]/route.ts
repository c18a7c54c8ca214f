import { payPageInvoice } from "@/lib/checkout/merchant-api/pay-page";

export const dynamic = "force-dynamic";

export const GET = payPageInvoice;
