import { topUpBalance } from "@/lib/dashboard/http/topup";

export const dynamic = "force-dynamic";

export const POST = topUpBalance;
