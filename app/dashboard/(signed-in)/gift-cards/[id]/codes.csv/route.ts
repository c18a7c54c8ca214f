import { batchCodesCsv } from "@/lib/dashboard/gift-card-batches";
import { getDb } from "@/lib/platform/db";
import { currentMerchant, SIGN_IN_PATH } from "@/lib/dashboard/http/auth";
import { guardedRoute } from "@/lib/platform/http/guarded-route";
import { addLogContext } from "@/lib/platform/log";

/**
 * A batch's codes as CSV (id, code, currency, value, balance), for the batch's merchant only: another merchant's batch,
 * or none, is 404. A GET that changes nothing, so the session cookie (SameSite=Lax) is all it needs; never cached.
 */
export const GET = guardedRoute(async (request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> => {
  const signedIn = await currentMerchant();
  if (!signedIn) return Response.redirect(new URL(SIGN_IN_PATH, request.url), 303);
  addLogContext({ merchant_id: signedIn.merchant.id });
  const { id } = await params;
  const csv = await batchCodesCsv(await getDb(), signedIn.merchant.id, id);
  if (csv === undefined) {
    return new Response("Not found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
  }
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      // The id is checked (gcb_ and a ULID) before it gets here: nothing to escape in the file name.
      "Content-Disposition": `attachment; filename="gift-cards-${id}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
