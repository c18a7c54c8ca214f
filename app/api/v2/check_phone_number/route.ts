import { ok, V2Error } from "@/lib/api/merchant/envelope";
import { e164, operatorsFor } from "@/lib/api/merchant/products";
import { merchantRoute } from "@/lib/api/merchant/route";

export const dynamic = "force-dynamic";

/**
 * Which operators can top up a phone number (`phone_number`, E.164). With `operator` (a top-up product id), whether
 * that one can: `unsupported_operator` when it cannot.
 */
export const GET = merchantRoute("GET /check_phone_number", async (req, { db, endpoint }) => {
  const url = new URL(req.url);
  const phone = e164(url.searchParams.get("phone_number"));
  const operators = await operatorsFor(db, phone);
  const wanted = url.searchParams.get("operator")?.trim();
  if (wanted && !operators.some((o) => o.id === wanted)) {
    throw new V2Error(
      400,
      "unsupported_operator",
      `Operator ${wanted} does not serve ${phone}${operators.length ? `; these do: ${operators.map((o) => o.id).join(", ")}` : ""}.`,
    );
  }
  if (!wanted && operators.length === 0) throw new V2Error(400, "unsupported_operator", `No operator we sell serves ${phone}.`);
  return ok(endpoint, { phone_number: phone, supported: true, operators: wanted ? operators.filter((o) => o.id === wanted) : operators });
});

// The methods this path does not take: a 405 with Allow (204 to OPTIONS) in the API's envelope, not Next.js's bare one.
export {
  merchantFallback as POST,
  merchantFallback as PUT,
  merchantFallback as PATCH,
  merchantFallback as DELETE,
  merchantFallback as OPTIONS,
} from "@/lib/api/merchant/route";
