import { x402Preflight } from "@/lib/http/x402/with-x402-fee";
import { issueSessionToken, walletId } from "@/lib/identity";
import { jsonResponse } from "@/lib/http/api-error";
import { nextStep } from "@/lib/http/next-step";
import { withWallet } from "@/lib/http/x402/with-wallet";

export const dynamic = "force-dynamic";

/** One SIWX signature -> a session token for X-Access-Token. */
export const POST = withWallet(
  "connect",
  async (_req, { wallet, origin }) => {
    const { token, expiresIn } = await issueSessionToken(wallet);
    return jsonResponse({
      token,
      token_header: "X-Access-Token",
      expires_in: expiresIn,
      wallet: walletId(wallet),
      next_step: nextStep(origin, "GET", "/x402/my/orders"),
    });
  },
  { acceptToken: false },
);

export const OPTIONS = x402Preflight;
