import { requirementsAnsweredOk } from "@/lib/api/x402/requirements-ok";
import { topUpBalance } from "@/lib/dashboard/http/topup";

export const dynamic = "force-dynamic";

/** The top-up's payment requirements for the dashboard's page, answered 200 instead of the top-up route's 402. */
export const POST = requirementsAnsweredOk(topUpBalance);
