import type { Metadata } from "next";
import { OpenApiReference, type OpenApiDocument } from "@/components/docs/openapi-reference";
import { requestOrigin } from "@/lib/platform/http/request-origin";
import { x402OpenApiDocument } from "@/lib/openapi/x402";

export const metadata: Metadata = { title: "x402 API reference", description: "The wallet-paid API: fees, sign-in with a wallet, invoices paid in USDC." };
export const dynamic = "force-dynamic";

export default async function X402DocsPage() {
  const origin = await requestOrigin();
  const doc = x402OpenApiDocument(origin) as unknown as OpenApiDocument;
  return (
    <OpenApiReference
      doc={doc}
      jsonUrl={`${origin}/x402/openapi.json`}
      intro={
        <div className="rounded-2xl bg-brand-50 p-4 text-sm text-slate-800 ring-1 ring-brand-100">
          <p className="font-medium">First call</p>
          <pre tabIndex={0} aria-label="Example request" className="mt-2 overflow-x-auto rounded-lg bg-slate-900 p-3 font-mono text-xs text-slate-100">
            <code>{`curl -i ${origin}/x402/checkout/info   # 402: the fee, in PAYMENT-REQUIRED and the body`}</code>
          </pre>
          <p className="mt-2">
            An x402 client (such as <code className="font-mono">@x402/fetch</code> with a wallet) pays the fee and sends the request again.
          </p>
        </div>
      }
    />
  );
}
