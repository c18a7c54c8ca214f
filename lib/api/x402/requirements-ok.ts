import { PAYMENT_HEADERS } from "./payment-header";

/**
 * The shop's own pages ask a paid route for its payment requirements here: the route's own handler, given the same
 * request without a payment, and its 402 answered 200 with the same body and PAYMENT-REQUIRED header. A browser logs
 * every 402 as a failed resource, which a shopper who opens the console takes for an error; the x402 clients of the
 * APIs still get their 402 from the routes themselves. The payment is then sent to the route as any client sends it
 * (components/checkout/shop-api.ts). Any other answer (a refusal, an invoice not payable) is the route's own.
 */
export function requirementsAnsweredOk(handler: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  return async (req: Request) => {
    const unpaid = new Headers(req.headers);
    for (const name of PAYMENT_HEADERS) unpaid.delete(name);
    const answer = await handler(new Request(req, { headers: unpaid }));
    if (answer.status !== 402 || !answer.headers.has("payment-required")) return answer;
    return new Response(answer.body, { status: 200, headers: answer.headers });
  };
}
