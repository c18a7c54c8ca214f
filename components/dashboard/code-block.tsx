import { CopyButton } from "@/components/ui/copy-button";

/** A command or snippet to copy: monospaced, wrapped on narrow screens, with a copy button. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div className="flex flex-col gap-2 rounded-xl bg-slate-900 p-3 sm:flex-row sm:items-start">
      <pre role="group" aria-label={label} className="min-w-0 flex-1 font-mono text-sm leading-6 break-all whitespace-pre-wrap text-slate-100">
        <code>{code}</code>
      </pre>
      <CopyButton value={code} label={label} className="self-end sm:self-start" />
    </div>
  );
}
