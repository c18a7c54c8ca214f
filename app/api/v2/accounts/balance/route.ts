import { ok } from "@/lib/api/merchant/envelope";
import { merchantRoute } from "@/lib/api/merchant/route";
import { balanceOf } from "@/lib/merchants";

export const dynamic = "force-dynamic";

/** The balance in integer US cents. */
export const GET = merchantRoute("GET /accounts/balance", async (_req, { db, merchant, endpoint }) =>
  ok(endpoint, { balance: Number(await balanceOf(db, merchant.id)), currency: "USD" }),
);

// The methods this path does not take: a 405 with Allow (204 to OPTIONS) in the API's envelope, not Next.js's bare one.
export {
  merchantFallback as POST,
  merchantFallback as PUT,
  merchantFallback as PATCH,
  merchantFallback as DELETE,
  merchantFallback as OPTIONS,
} from "@/lib/api/merchant/route";
