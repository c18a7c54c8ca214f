import { merchantRoute } from "@/lib/http/merchant/route";
import { getEsimHandler } from "@/lib/http/merchant/handlers";

export const dynamic = "force-dynamic";

export const GET = merchantRoute("GET /esims/{id}", getEsimHandler);
