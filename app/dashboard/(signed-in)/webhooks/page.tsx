import type { Metadata } from "next";
import { Card, textLinkClass } from "@/components/dashboard/card";
import Link from "next/link";
import { Badge } from "@/components/dashboard/badge";
import { DataTable, type Column } from "@/components/dashboard/data-table";
import { EnableEndpointButton } from "@/components/dashboard/enable-endpoint-button";
import { EmptyState } from "@/components/dashboard/empty-state";
import { FirstWebhook } from "@/components/dashboard/first-webhook";
import { formatDateTime, formatDateTimeSeconds } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { Pagination } from "@/components/dashboard/pagination";
import { SendTestWebhookForm } from "@/components/dashboard/send-test-webhook-form";
import { WebhookStatusBadge } from "@/components/dashboard/status-badges";
import { WebhookFilters } from "@/components/dashboard/webhook-filters";
import { WebhookSecretPanel } from "@/components/dashboard/webhook-secret-panel";
import { defaultTestUrl, listWebhookLog, parseWebhookLogQuery, webhookLogParams, type WebhookLogQuery } from "@/lib/dashboard/webhooks";
import { getDb } from "@/lib/platform/db";
import { requestOrigin, requireMerchant } from "@/lib/dashboard/http/auth";
import { getWebhookSecrets, listWebhookEndpoints, ROTATION_OVERLAP_MS, type WebhookDelivery, type WebhookEndpoint } from "@/lib/webhooks";
import { enableEndpointAction, sendTestWebhookAction, webhookSecretAction } from "./actions";

export const metadata: Metadata = { title: "Webhooks" };

const IGNORED_NAMES: Record<string, string> = { status: "status", event: "event type", url: "URL", invoice: "invoice id", cursor: "page link" };
const EXCERPT_CHARS = 80;

const href = (query: WebhookLogQuery) => {
  const params = webhookLogParams(query).toString();
  return params ? `/dashboard/webhooks?${params}` : "/dashboard/webhooks";
};

const Time = ({ at, seconds = true }: { at: Date; seconds?: boolean }) => (
  <time dateTime={at.toISOString()}>{seconds ? formatDateTimeSeconds(at) : formatDateTime(at)}</time>
);

/** A time in a narrow column: the date and the time of day each kept whole, wrapping between them when the table is tight. */
const WrappingTime = ({ at }: { at: Date }) => {
  const [date, time] = formatDateTimeSeconds(at).split(", ");
  return (
    <time dateTime={at.toISOString()}>
      <span className="whitespace-nowrap">{date},</span> <span className="whitespace-nowrap">{time}</span>
    </time>
  );
};

/** The latest attempt's answer: its status code and the start of its body, or why there was none. */
function LastAnswer({ d }: { d: WebhookDelivery }) {
  const a = d.lastAttempt;
  if (!a) return <span className="text-slate-600">Not sent yet</span>;
  const text = a.error ?? a.responseExcerpt;
  return (
    <span className="flex min-w-0 flex-col gap-0.5">
      <span className="font-semibold tabular-nums">{a.statusCode !== null ? `HTTP ${a.statusCode}` : "No answer"}</span>
      {text && (
        <span className="text-xs [overflow-wrap:anywhere] text-slate-700">{text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text}</span>
      )}
    </span>
  );
}

const logColumns: Column<WebhookDelivery>[] = [
  {
    header: "Event",
    rowHeader: true,
    cell: (d) => (
      <span className="flex min-w-0 flex-col gap-0.5">
        <Link href={`/dashboard/webhooks/${d.id}`} className="text-brand-700 underline-offset-4 hover:underline">
          {d.eventType}
          <span className="sr-only"> delivery {d.id}</span>
        </Link>
        {d.invoiceId && <span className="font-mono text-xs font-normal [overflow-wrap:anywhere] text-slate-600">{d.invoiceId}</span>}
      </span>
    ),
  },
  { header: "Target URL", cell: (d) => <span className="min-w-0 font-mono text-xs break-all">{d.url}</span> },
  { header: "Status", cell: (d) => <WebhookStatusBadge delivery={d} /> },
  { header: "Attempt", className: "tabular-nums", cell: (d) => (d.lastAttempt ? `#${d.lastAttempt.attempt}` : "—") },
  { header: "Response", className: "min-w-40", cell: (d) => <LastAnswer d={d} /> },
  { header: "Event time", cell: (d) => <WrappingTime at={d.eventAt} /> },
  { header: "Last sent", cell: (d) => (d.lastAttempt ? <WrappingTime at={d.lastAttempt.sentAt} /> : "—") },
];

const endpointColumns: Column<WebhookEndpoint>[] = [
  { header: "URL", rowHeader: true, cell: (e) => <span className="font-mono text-sm font-normal break-all">{e.url}</span> },
  {
    header: "Status",
    cell: (e) =>
      e.disabledAt ? (
        <span className="flex min-w-0 flex-col items-start gap-1">
          <Badge tone="red">disabled</Badge>
          <span className="text-xs text-slate-700">
            Since <Time at={e.disabledAt} seconds={false} />: {e.disabledReason}
          </span>
        </span>
      ) : (
        <Badge tone="green">active</Badge>
      ),
  },
  { header: "Failures in a row", className: "tabular-nums", cell: (e) => e.consecutiveFailures },
  { header: "Pending", className: "tabular-nums", cell: (e) => e.pendingDeliveries },
  {
    header: "Action",
    phoneLabel: false,
    cell: (e) => <EnableEndpointButton key={e.url} url={e.url} disabled={Boolean(e.disabledAt)} action={enableEndpointAction} />,
  },
];

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant } = await requireMerchant();
  const { query, ignored } = parseWebhookLogQuery(await searchParams);
  const db = await getDb();
  const [log, endpoints, secrets] = await Promise.all([
    listWebhookLog(db, merchant.id, query),
    listWebhookEndpoints(db, merchant.id),
    getWebhookSecrets(db, merchant.id),
  ]);
  const filtered = Boolean(query.status || query.event || query.url || query.invoice);
  const firstTime = log.deliveries.length === 0 && !filtered && !query.cursor && endpoints.length === 0;
  const notUnderstood = [...ignored, ...(log.cursorRefused ? ["cursor"] : [])];
  const disabled = endpoints.filter((e) => e.disabledAt);
  const onFirstPage = !query.cursor || log.cursorRefused;

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Every message the shop sent to your webhook URLs, with each attempt and what your server answered. Open one to see its payload or send it again."
      />
      {firstTime ? (
        <FirstWebhook origin={await requestOrigin()} />
      ) : (
        <>
          {endpoints.length > 0 && (
            <section aria-labelledby="webhook-endpoints" className="flex flex-col gap-3">
              <h2 id="webhook-endpoints" className="text-lg font-bold text-slate-900">
                Endpoints
              </h2>
              {disabled.length > 0 ? (
                <p className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
                  {disabled.length === 1 ? "One endpoint is" : `${disabled.length} endpoints are`} disabled: {disabled.length === 1 ? "its" : "their"} messages
                  are held until you re-enable {disabled.length === 1 ? "it" : "them"}. Fix the receiver first (a redelivery or a test event shows whether it
                  answers), then re-enable.
                </p>
              ) : (
                <p className="text-sm text-slate-700">An endpoint is disabled when it answers 410 Gone, or after about a day of failed attempts in a row.</p>
              )}
              <DataTable caption="Endpoints" columns={endpointColumns} rows={endpoints} rowKey={(e) => e.url} />
            </section>
          )}

          <section aria-labelledby="webhook-log" className="flex flex-col gap-3">
            <h2 id="webhook-log" className="text-lg font-bold text-slate-900">
              Delivery log
            </h2>
            <WebhookFilters key={webhookLogParams(query).toString()} query={query} urls={endpoints.map((e) => e.url)} />
            {notUnderstood.length > 0 && (
              <p role="status" className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
                Ignored a value this log does not understand: {notUnderstood.map((k) => IGNORED_NAMES[k] ?? k).join(", ")}.
                {log.cursorRefused && " Showing the newest messages."}
              </p>
            )}
            {log.deliveries.length === 0 ? (
              <EmptyState title="No messages match" headingLevel={3}>
                <p>
                  {query.cursor ? "There are no older messages. " : "Try fewer filters. "}
                  <Link href="/dashboard/webhooks" className={textLinkClass}>
                    See every message
                  </Link>
                  .
                </p>
              </EmptyState>
            ) : (
              <>
                <DataTable caption="Webhook deliveries" columns={logColumns} rows={log.deliveries} rowKey={(d) => d.id} />
                <Pagination
                  label="Delivery log pages"
                  summary={`${log.deliveries.length} message${log.deliveries.length === 1 ? "" : "s"}, ${onFirstPage ? "the newest first" : "older ones"}; times in UTC`}
                  previous={onFirstPage ? null : href({ ...query, cursor: undefined })}
                  next={log.nextCursor ? href({ ...query, cursor: log.nextCursor }) : null}
                  previousLabel="Newest"
                  nextLabel="Older"
                />
              </>
            )}
          </section>
        </>
      )}

      <div className="grid gap-4 lg:grid-cols-2">
        <Card id="webhook-test" title="Send a test event">
          <p className="text-slate-700">Check that your receiver answers and verifies the signature before a real invoice depends on it.</p>
          <SendTestWebhookForm defaultUrl={defaultTestUrl(endpoints)} action={sendTestWebhookAction} />
        </Card>
        <Card id="webhook-secret" title="Signing secret">
          <p className="text-slate-700">
            Every message is signed with it (Standard Webhooks: <code className="font-mono text-sm">webhook-signature</code>). Keep it on your server only.
          </p>
          <WebhookSecretPanel
            previousUntil={secrets.previous?.until.toISOString() ?? null}
            overlapHours={ROTATION_OVERLAP_MS / 3_600_000}
            action={webhookSecretAction}
          />
        </Card>
      </div>
    </>
  );
}
