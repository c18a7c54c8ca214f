import type { Metadata } from "next";
import { Card, textLinkClass } from "@/components/dashboard/card";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge } from "@/components/dashboard/badge";
import { Breadcrumb } from "@/components/dashboard/breadcrumb";
import { CodeBlock } from "@/components/dashboard/code-block";
import { DataTable, type Column } from "@/components/dashboard/data-table";
import { DetailList } from "@/components/dashboard/detail-list";
import { formatDateTimeSeconds } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { RedeliverWebhookButton } from "@/components/dashboard/redeliver-webhook-button";
import { WebhookStatusBadge } from "@/components/dashboard/status-badges";
import { getDb } from "@/lib/platform/db";
import { requireMerchant } from "@/lib/dashboard/http/auth";
import { getWebhookDelivery, listWebhookEndpoints, type WebhookAttempt } from "@/lib/webhooks";
import { redeliverWebhookAction } from "../actions";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Webhook ${(await params).id}` };
}

const EXCERPT_CHARS = 300;

const Time = ({ at }: { at: Date }) => <time dateTime={at.toISOString()}>{formatDateTimeSeconds(at)}</time>;
const ok = (code: number | null) => code !== null && code >= 200 && code < 300;

/** The body's start as received (a KiB at most), shorter in the table; the rest on request. */
function Excerpt({ text }: { text: string }) {
  if (text.length <= EXCERPT_CHARS) return <pre className="font-mono text-xs [overflow-wrap:anywhere] whitespace-pre-wrap">{text}</pre>;
  return (
    <details>
      <summary className="cursor-pointer">
        <pre className="inline font-mono text-xs [overflow-wrap:anywhere] whitespace-pre-wrap">{text.slice(0, EXCERPT_CHARS)}…</pre>
        <span className="ml-1 text-xs font-semibold text-brand-700">Show all</span>
      </summary>
      <pre className="font-mono text-xs [overflow-wrap:anywhere] whitespace-pre-wrap">{text}</pre>
    </details>
  );
}

const attemptColumns: Column<WebhookAttempt>[] = [
  { header: "Attempt", rowHeader: true, className: "tabular-nums", cell: (a) => `#${a.attempt}` },
  { header: "Sent at", className: "whitespace-nowrap", cell: (a) => <Time at={a.sentAt} /> },
  { header: "Duration", className: "whitespace-nowrap tabular-nums", cell: (a) => `${a.durationMs} ms` },
  {
    header: "Response code",
    cell: (a) => <Badge tone={ok(a.statusCode) ? "green" : "red"}>{a.statusCode !== null ? `HTTP ${a.statusCode}` : "no answer"}</Badge>,
  },
  {
    header: "Response",
    className: "min-w-48",
    cell: (a) => (
      <span className="flex min-w-0 flex-col gap-1">
        {a.error && <span className="font-medium [overflow-wrap:anywhere] text-red-800">{a.error}</span>}
        {a.responseExcerpt ? <Excerpt text={a.responseExcerpt} /> : !a.error && <span className="text-slate-600">Empty body</span>}
      </span>
    ),
  },
  { header: "URL", cell: (a) => <span className="min-w-0 font-mono text-xs break-all">{a.url}</span> },
];

export default async function WebhookDeliveryPage({ params }: Props) {
  const { merchant } = await requireMerchant();
  const id = (await params).id;
  const db = await getDb();
  const d = await getWebhookDelivery(db, merchant.id, id);
  if (!d) notFound();
  const endpoint = (await listWebhookEndpoints(db, merchant.id)).find((e) => e.url === d.url);

  const nextAttempt = d.nextAttemptAt ? (
    <Time at={d.nextAttemptAt} />
  ) : d.status === "pending" ? (
    "Held until its endpoint is re-enabled"
  ) : (
    "None: it is no longer retried"
  );
  return (
    <>
      <Breadcrumb section="Webhooks" href="/dashboard/webhooks" current={d.id} />
      <PageHeader title={d.eventType} description={`Webhook message ${d.id}`}>
        <WebhookStatusBadge delivery={d} />
      </PageHeader>

      {endpoint?.disabledAt && (
        <p className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
          Its endpoint is disabled ({endpoint.disabledReason}). Redeliver still sends this message; re-enable the endpoint on the{" "}
          <Link href="/dashboard/webhooks" className="font-semibold underline underline-offset-4">
            Webhooks page
          </Link>{" "}
          to have its other messages sent.
        </p>
      )}

      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card id="delivery-facts" title="Details">
          <DetailList
            items={[
              { term: "Target URL", value: <span className="font-mono text-sm break-all">{d.url}</span> },
              { term: "Event type", value: <span className="font-mono text-sm">{d.eventType}</span> },
              {
                term: "Invoice",
                value: d.invoiceId ? (
                  <Link href={`/dashboard/invoices/${d.invoiceId}`} className={`${textLinkClass} font-mono text-sm`}>
                    {d.invoiceId}
                  </Link>
                ) : (
                  "None: a test event"
                ),
              },
              { term: "Event time", value: <Time at={d.eventAt} /> },
              { term: "Created", value: <Time at={d.createdAt} /> },
              { term: "Status", value: <WebhookStatusBadge delivery={d} /> },
              { term: "Attempts", value: d.attempts },
              ...(d.deliveredAt ? [{ term: "Delivered", value: <Time at={d.deliveredAt} /> }] : []),
              { term: "Next attempt", value: nextAttempt },
              ...(d.lastError ? [{ term: "Last error", value: d.lastError }] : []),
            ]}
          />
        </Card>
        <Card id="delivery-redeliver" title="Send it again">
          <p className="text-slate-700">
            Sends this message now as the next attempt, with the same <code className="font-mono text-sm">webhook-id</code> and payload, signed with your
            current secret. A 2xx answer marks it delivered; a failure leaves its retries as they were.
          </p>
          <RedeliverWebhookButton id={d.id} action={redeliverWebhookAction} />
        </Card>
      </div>

      <section aria-labelledby="delivery-attempts" className="flex flex-col gap-3">
        <h2 id="delivery-attempts" className="text-lg font-bold text-slate-900">
          Attempts
        </h2>
        {d.attemptLog.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-5 text-slate-700">
            Not sent yet
            {d.nextAttemptAt ? (
              <>
                : the first attempt is due <Time at={d.nextAttemptAt} />
              </>
            ) : (
              ""
            )}
            .
          </p>
        ) : (
          <DataTable
            caption={`Attempts of webhook message ${d.id}`}
            columns={attemptColumns}
            rows={d.attemptLog}
            rowKey={(a) => `${a.attempt}-${a.sentAt.toISOString()}`}
          />
        )}
      </section>

      <section aria-labelledby="delivery-payload" className="flex flex-col gap-3">
        <h2 id="delivery-payload" className="text-lg font-bold text-slate-900">
          Payload
        </h2>
        <CodeBlock code={JSON.stringify(d.payload, null, 2)} label="payload" />
      </section>
    </>
  );
}
