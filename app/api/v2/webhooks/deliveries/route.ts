import { merchantRoute } from "@/lib/api-v2/route";
import { listDeliveriesHandler } from "@/lib/merchant-invoices/webhook-handlers";

export const dynamic = "force-dynamic";

export const GET = merchantRoute("GET /webhooks/deliveries", listDeliveriesHandler);
