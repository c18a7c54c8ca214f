import type { WebhookAttemptOutcome } from "@/lib/dashboard/form-states";

const EXCERPT_CHARS = 300;

/** What an attempt made from the dashboard got back: accepted or not, the status code or why none came, the body's start. */
export function AttemptOutcome({ outcome, children }: { outcome: WebhookAttemptOutcome; children?: React.ReactNode }) {
  const answer = outcome.statusCode !== null ? `HTTP ${outcome.statusCode}` : "no answer";
  const excerpt = outcome.responseExcerpt;
  return (
    <div
      className={`flex min-w-0 flex-col gap-1.5 rounded-xl p-3 text-sm ring-1 ${outcome.ok ? "bg-emerald-50 text-emerald-950 ring-emerald-200" : "bg-red-50 text-red-950 ring-red-200"}`}
    >
      <p className="font-semibold">
        {outcome.ok ? "Accepted" : "Not accepted"}: {answer} in {outcome.durationMs} ms <span className="font-normal">(attempt {outcome.attempt})</span>
      </p>
      {outcome.error && <p className="[overflow-wrap:anywhere]">{outcome.error}</p>}
      {excerpt && (
        <pre className="font-mono text-xs [overflow-wrap:anywhere] whitespace-pre-wrap">
          {excerpt.length > EXCERPT_CHARS ? `${excerpt.slice(0, EXCERPT_CHARS)}…` : excerpt}
        </pre>
      )}
      {children}
    </div>
  );
}
