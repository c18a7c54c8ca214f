import { CopyButton } from "./copy-button";

/** A value to copy (a code, an address, an amount), with its label and a copy button that says it copied. */
export function CopyField({ label, value, mono = true }: { label: string; value: string; mono?: boolean }) {
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{label}</span>
      <div className="flex items-center gap-2">
        <output className={`min-w-0 flex-1 rounded-lg bg-slate-100 px-3 py-2 break-all text-slate-900 ${mono ? "font-mono" : ""}`}>{value}</output>
        <CopyButton value={value} label={label} className="h-10" />
      </div>
    </div>
  );
}
