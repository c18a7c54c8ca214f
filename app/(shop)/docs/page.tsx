import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "API documentation", description: "The shop's two APIs: the merchant API and the wallet-paid x402 API." };

const APIS = [
  {
    href: "/docs/merchant-api",
    json: "/api/v2/openapi.json",
    title: "Merchant API",
    about: "For businesses: API keys, a USD balance, invoices paid from it or in USDC, orders with their codes, webhooks and rate limits.",
  },
  {
    href: "/docs/x402",
    json: "/x402/openapi.json",
    title: "x402 API",
    about: "For agents and programs with a wallet: micro-fee search, sign-in with the wallet, invoices paid in USDC through x402.",
  },
];

export default function DocsPage() {
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">API documentation</h1>
      <ul className="grid gap-4 sm:grid-cols-2">
        {APIS.map((api) => (
          <li key={api.href} className="flex flex-col gap-2 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <h2 className="text-lg font-semibold text-slate-900">
              <Link href={api.href} className="hover:underline">
                {api.title}
              </Link>
            </h2>
            <p className="text-sm text-slate-700">{api.about}</p>
            <p className="text-sm">
              <a href={api.json} className="font-medium text-brand-700 underline">
                OpenAPI 3.1 (JSON)
              </a>
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}
