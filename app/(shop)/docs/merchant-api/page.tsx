import type { Metadata } from "next";
import { OpenApiReference, type OpenApiDocument } from "@/components/docs/openapi-reference";
import { requestOrigin } from "@/lib/platform/http/request-origin";
import { v2OpenApiDocument } from "@/lib/openapi/v2";

export const metadata: Metadata = {
  title: "Merchant API reference",
  description: "Every route of the merchant API: parameters, answers, error codes and limits.",
};
export const dynamic = "force-dynamic";

export default async function MerchantApiDocsPage() {
  const origin = await requestOrigin();
  const doc = v2OpenApiDocument(origin) as unknown as OpenApiDocument;
  return (
    <OpenApiReference
      doc={doc}
      jsonUrl={`${origin}/api/v2/openapi.json`}
      intro={
        <div className="rounded-2xl bg-brand-50 p-4 text-sm text-slate-800 ring-1 ring-brand-100">
          <p className="font-medium">First call</p>
          <pre tabIndex={0} aria-label="Example request" className="mt-2 overflow-x-auto rounded-lg bg-slate-900 p-3 font-mono text-xs text-slate-100">
            <code>{`curl -u "$API_ID:$API_SECRET" ${origin}/api/v2/ping`}</code>
          </pre>
        </div>
      }
    />
  );
}
