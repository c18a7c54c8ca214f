import { merchantRoute } from "@/lib/http/merchant/route";
import { listDeliveriesHandler } from "@/lib/http/merchant/webhook-handlers";

export const dynamic = "force-dynamic";

export const GET = merchantRoute("GET /webhooks/deliveries", listDeliveriesHandler);
