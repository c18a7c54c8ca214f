import { merchantRoute } from "@/lib/http/merchant/route";
import { getOrderHandler } from "@/lib/http/merchant/handlers";

export const dynamic = "force-dynamic";

export const GET = merchantRoute("GET /orders/{id}", getOrderHandler);
