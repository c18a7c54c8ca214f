import { getDb } from "@/lib/platform/db";
import { currentMerchant, SIGN_IN_PATH } from "@/lib/dashboard/http/auth";
import { allMerchantOrders, parseOrderListQuery } from "@/lib/dashboard/order-list";
import { ordersCsvHeader, ordersCsvRows } from "@/lib/dashboard/orders-csv";
import { guardedRoute } from "@/lib/platform/http/guarded-route";
import { addLogContext, log } from "@/lib/platform/log";

/**
 * The orders table as CSV, with the same filters and sort as the page that links here, every page of it. Streamed a
 * batch at a time. A GET that changes nothing, so the session cookie (SameSite=Lax) is all it needs.
 */
export const GET = guardedRoute(async (request: Request): Promise<Response> => {
  const signedIn = await currentMerchant();
  if (!signedIn) return Response.redirect(new URL(SIGN_IN_PATH, request.url), 303);
  addLogContext({ merchant_id: signedIn.merchant.id });
  const { query } = parseOrderListQuery(Object.fromEntries(new URL(request.url).searchParams));
  const db = await getDb();
  const batches = allMerchantOrders(db, signedIn.merchant.id, query);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(ordersCsvHeader()));
    },
    async pull(controller) {
      try {
        const next = await batches.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(ordersCsvRows(next.value)));
      } catch (err) {
        log.error({ err, merchant_id: signedIn.merchant.id }, "orders export failed");
        controller.error(err);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="orders-${day}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
