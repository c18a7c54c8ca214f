import { ok } from "@/lib/http/merchant/envelope";
import { merchantRoute } from "@/lib/http/merchant/route";
import { balanceOf } from "@/lib/merchants";

export const dynamic = "force-dynamic";

/** The balance in integer US cents. */
export const GET = merchantRoute("GET /accounts/balance", async (_req, { db, merchant, endpoint }) =>
  ok(endpoint, { balance: Number(await balanceOf(db, merchant.id)), currency: "USD" }),
);
