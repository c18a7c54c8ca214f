import Link from "next/link";
import { CodeBlock } from "./code-block";
import { EmptyState } from "./empty-state";

/** The command a new merchant runs first: ping over HTTP Basic, against this shop's real address. */
export function firstApiCall(origin: string): string {
  return `curl -u "YOUR_API_ID:YOUR_API_SECRET" ${origin}/api/v2/ping`;
}

/** The empty state of a merchant without orders (or invoices, on their page): how to make a first API call. */
export function FirstApiCall({ origin, nothing = "orders" }: { origin: string; nothing?: "orders" | "invoices" }) {
  return (
    <EmptyState title={`No ${nothing} yet: make your first API call`}>
      <ol className="flex list-decimal flex-col gap-3 pl-5">
        <li>
          Take the API ID and secret you were given, or{" "}
          <Link href="/dashboard/keys" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
            create a business key
          </Link>
          .
        </li>
        <li>
          <div className="flex flex-col gap-2">
            <span>
              Put them in this command and run it in a terminal. The API answers <code className="font-mono text-slate-900">pong</code>.
            </span>
            <CodeBlock code={firstApiCall(origin)} label="first API call" />
          </div>
        </li>
        <li>
          Then order over <code className="font-mono text-slate-900">POST /api/v2/invoices</code>; your orders will show here. Test products (
          <code className="font-mono text-slate-900">test-gift-card-code</code>) deliver at once.
        </li>
      </ol>
    </EmptyState>
  );
}
