import Link from "next/link";

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:justify-between">
        <p>Gift cards, eSIMs and mobile top-ups, paid in USDC from your wallet.</p>
        <p>
          Prices in US dollars; 1 USDC = 1 USD.{" "}
          <Link href="/gift-cards/balance" className="font-medium text-slate-700 underline">
            Gift card balance
          </Link>
          {" · "}
          <Link href="/docs" className="font-medium text-slate-700 underline">
            API documentation
          </Link>
        </p>
      </div>
    </footer>
  );
}
