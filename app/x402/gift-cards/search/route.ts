import { x402SearchRoute } from "@/lib/http/x402-search";

export const dynamic = "force-dynamic";

export const GET = x402SearchRoute("gift_card");
