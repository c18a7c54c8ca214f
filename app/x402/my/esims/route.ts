import { x402Preflight } from "@/lib/http/with-x402-fee";
import { jsonResponse } from "@/lib/http/api-error";
import { withWallet } from "@/lib/http/with-wallet";
import { walletId } from "@/lib/identity";

export const dynamic = "force-dynamic";

/** The signed-in wallet's eSIMs with their top-up offers. eSIMs exist once checkout is in place. */
export const GET = withWallet("myEsims", async (_req, { wallet }) => jsonResponse({ wallet: walletId(wallet), esims: [] }));

export const OPTIONS = x402Preflight;
