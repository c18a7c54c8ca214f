import type { TimelineStep } from "@/lib/dashboard/order-detail";
import { formatDateTime } from "./format";

const DOT = { done: "bg-emerald-600", bad: "bg-red-600", waiting: "bg-white ring-2 ring-slate-400" } as const;

/** Steps in the order they happened; a step still ahead has a hollow dot and no time. */
export function Timeline({ steps, label }: { steps: TimelineStep[]; label: string }) {
  return (
    <ol aria-label={label} className="flex flex-col">
      {steps.map((s, i) => (
        <li key={`${s.label}-${i}`} className="relative flex gap-3 pb-5 last:pb-0">
          {i < steps.length - 1 && <span aria-hidden className="absolute top-4 left-[5px] h-full w-0.5 bg-slate-200" />}
          <span aria-hidden className={`relative mt-1.5 size-3 shrink-0 rounded-full ${DOT[s.tone]}`} />
          <div className="flex min-w-0 flex-col">
            <span className="font-semibold text-slate-900">
              {s.label}
              {s.at && <span className="font-normal text-slate-700"> · {formatDateTime(s.at)}</span>}
              {!s.at && <span className="font-normal text-slate-700"> · not yet</span>}
            </span>
            {s.detail && <span className="text-sm [overflow-wrap:anywhere] text-slate-700">{s.detail}</span>}
          </div>
        </li>
      ))}
    </ol>
  );
}
