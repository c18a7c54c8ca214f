import { topUpBalance } from "@/lib/http/dashboard/topup";

export const dynamic = "force-dynamic";

export const POST = topUpBalance;
