import { x402Preflight } from "@/lib/http/with-x402-fee";
import { z } from "zod";
import { invalidParams, jsonResponse } from "@/lib/http/api-error";
import { withWallet } from "@/lib/http/with-wallet";
import { walletId } from "@/lib/identity";

export const dynamic = "force-dynamic";

const query = z.object({
  start: z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(0, "must be at least 0").default(0),
  limit: z.coerce.number({ error: "must be a whole number" }).int("must be a whole number").min(1, "must be 1 to 100").max(100, "must be 1 to 100").default(50),
});

function parse(req: Request) {
  const url = new URL(req.url);
  const parsed = query.safeParse({ start: url.searchParams.get("start") ?? undefined, limit: url.searchParams.get("limit") ?? undefined });
  if (!parsed.success) throw invalidParams(parsed.error.issues);
  return parsed.data;
}

/** The signed-in wallet's orders, newest first. Orders exist once checkout is in place; until then the list is empty. */
export const GET = withWallet(
  "myOrders",
  async (req, { wallet }) => {
    const { start, limit } = parse(req);
    return jsonResponse({ wallet: walletId(wallet), orders: [], start, limit, total: 0 });
  },
  { precheck: (req) => void parse(req) },
);

export const OPTIONS = x402Preflight;
