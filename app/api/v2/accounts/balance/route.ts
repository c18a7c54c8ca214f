import { ok } from "@/lib/api-v2/envelope";
import { merchantRoute } from "@/lib/api-v2/route";
import { balanceOf } from "@/lib/merchants";

export const dynamic = "force-dynamic";

/** The balance in integer US cents. */
export const GET = merchantRoute("GET /accounts/balance", async (_req, { db, merchant, endpoint }) =>
  ok(endpoint, { balance: Number(await balanceOf(db, merchant.id)), currency: "USD" }),
);
