import { CopyButton } from "@/components/ui/copy-button";

/** A secret shown once (a new key, the webhook signing secret): labelled, selectable in full, with a copy button. */
export function SecretField({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-semibold tracking-wide text-slate-700 uppercase">{label}</span>
      <div className="flex items-center gap-2">
        <output aria-label={label} className="min-w-0 flex-1 rounded-lg bg-white px-3 py-2 font-mono text-sm break-all text-slate-900 ring-1 ring-slate-300">
          {value}
        </output>
        <CopyButton value={value} label={label} />
      </div>
    </div>
  );
}
