import type { Metadata } from "next";
import { CreateKeyForm } from "@/components/dashboard/create-key-form";
import { EmptyState } from "@/components/dashboard/empty-state";
import { KeysTable } from "@/components/dashboard/keys-table";
import { PageHeader } from "@/components/dashboard/page-header";
import { listKeys } from "@/lib/dashboard";
import { getDb } from "@/lib/platform/db";
import { requireMerchant } from "@/lib/dashboard/http/auth";
import { createKeyAction, revokeKeyAction } from "./actions";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant, credential } = await requireMerchant();
  const keys = await listKeys(await getDb(), merchant.id);
  const { revoked } = await searchParams;
  const justRevoked = typeof revoked === "string" ? keys.find((k) => k.id === revoked && k.status === "revoked") : undefined;
  return (
    <>
      <PageHeader
        title="API keys"
        description="Business keys (API ID and secret, HTTP Basic) and personal tokens (Bearer) let programs use the merchant API as you. Revoke any you no longer use."
      />
      {justRevoked && (
        <p role="status" className="rounded-xl bg-slate-100 px-4 py-3 text-sm text-slate-800 ring-1 ring-slate-200">
          Revoked “{justRevoked.name}” (<code className="font-mono">{justRevoked.publicId}</code>): the API answers 401 to it from now on.
        </p>
      )}
      <CreateKeyForm action={createKeyAction} />
      <section aria-labelledby="keys-heading" className="flex flex-col gap-3">
        <h2 id="keys-heading" className="text-lg font-bold text-slate-900">
          Your keys
        </h2>
        {keys.length === 0 ? (
          <EmptyState title="No keys yet" headingLevel={3}>
            <p>Create a business key above, then call the API with its ID and secret.</p>
          </EmptyState>
        ) : (
          <KeysTable keys={keys} signedInWith={credential.id} revoke={revokeKeyAction} />
        )}
      </section>
    </>
  );
}
