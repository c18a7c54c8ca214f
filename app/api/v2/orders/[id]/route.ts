import { merchantRoute } from "@/lib/api-v2/route";
import { getOrderHandler } from "@/lib/merchant-invoices/handlers";

export const dynamic = "force-dynamic";

export const GET = merchantRoute("GET /orders/{id}", getOrderHandler);
