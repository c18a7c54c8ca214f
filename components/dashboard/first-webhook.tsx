import { CodeBlock } from "./code-block";
import { EmptyState } from "./empty-state";

/** An invoice made with a `webhook_url`: the way a merchant gets its first webhook, against this shop's real address. */
export function firstWebhookCall(origin: string): string {
  return [
    `curl -u "YOUR_API_ID:YOUR_API_SECRET" ${origin}/api/v2/invoices \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"products":[{"product_id":"test-gift-card-code","value":10}],"payment_method":"balance","auto_pay":true,"webhook_url":"https://example.com/webhooks"}'`,
  ].join("\n");
}

/** The empty state of a merchant that has sent no webhook yet: how to set a webhook URL. */
export function FirstWebhook({ origin }: { origin: string }) {
  return (
    <EmptyState title="No webhooks yet: set a webhook URL">
      <p>
        The shop tells your server when an invoice is final (complete, denied or payment error) by POSTing the invoice to the{" "}
        <code className="font-mono text-slate-900">webhook_url</code> you give when you create it. Each delivery, its attempts and your server&apos;s answers
        will show here.
      </p>
      <ol className="flex list-decimal flex-col gap-3 pl-5">
        <li>
          <div className="flex flex-col gap-2">
            <span>
              Create an invoice with a <code className="font-mono text-slate-900">webhook_url</code>: put your API ID and secret and your server&apos;s URL in
              this command. The test product is paid from your balance and delivered at once, so the webhook follows within seconds.
            </span>
            <CodeBlock code={firstWebhookCall(origin)} label="invoice with a webhook URL" />
          </div>
        </li>
        <li>
          Check each message&apos;s signature with your signing secret (below): the headers <code className="font-mono text-slate-900">webhook-id</code>,{" "}
          <code className="font-mono text-slate-900">webhook-timestamp</code> and <code className="font-mono text-slate-900">webhook-signature</code> follow
          Standard Webhooks.
        </li>
        <li>Not ready to order? Send a test event to your URL first.</li>
      </ol>
    </EmptyState>
  );
}
