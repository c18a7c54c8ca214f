import Link from "next/link";
import { BURNER_WALLET_NAME } from "@/components/wallet/burner/burner-wallet-info";

const linkClass = "font-semibold text-brand-700 underline-offset-2 hover:underline";

/**
 * The devnet's first ten minutes, on its home page (the README says the same under its quick start): a purchase with
 * the burner wallet, a merchant account from the dashboard's sign-in, and the ready-made agent. Only on the devnet,
 * where everything is paid in test USDC.
 */
export function FirstTenMinutes() {
  return (
    <section aria-labelledby="first-ten-minutes" className="rounded-2xl border border-brand-200 bg-white p-5 sm:p-6">
      <h2 id="first-ten-minutes" className="text-lg font-bold text-slate-900">
        First ten minutes on this devnet
      </h2>
      <p className="mt-1 text-sm text-slate-700">Everything here is paid in test USDC on local chains: no wallet extension needed.</p>
      <ol className="mt-4 grid gap-4 text-sm text-slate-800 sm:grid-cols-3">
        <li className="flex flex-col gap-1">
          <span className="font-semibold text-slate-900">1. Buy as a shopper</span>
          <span>
            Put a{" "}
            <Link href="/search?kind=gift_card" className={linkClass}>
              gift card
            </Link>{" "}
            in the cart, continue to payment, connect the &ldquo;{BURNER_WALLET_NAME}&rdquo;, press &ldquo;Get test USDC&rdquo; and pay: the code arrives in
            seconds.
          </span>
        </li>
        <li className="flex flex-col gap-1">
          <span className="font-semibold text-slate-900">2. Sell as a merchant</span>
          <span>
            <Link href="/dashboard/sign-in" className={linkClass}>
              Create a demo merchant
            </Link>{" "}
            on the dashboard&rsquo;s sign-in page: an API key, a test balance and the dashboard, at once.
          </span>
        </li>
        <li className="flex flex-col gap-1">
          <span className="font-semibold text-slate-900">3. Buy as an agent</span>
          <span>
            Run <code className="rounded bg-slate-100 px-1.5 py-0.5">npm run agent</code> beside the shop: it buys over <code>/x402</code> and <code>/mcp</code>
            , one line per step. What agents read:{" "}
            <a href="/llms.txt" className={linkClass}>
              llms.txt
            </a>
            .
          </span>
        </li>
      </ol>
    </section>
  );
}
