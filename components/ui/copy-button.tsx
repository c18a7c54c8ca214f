"use client";

import { useState } from "react";

/** Copies `value` to the clipboard; says so on the button and to screen readers. `label` names what is copied. */
export function CopyButton({ value, label, className = "" }: { value: string; label: string; className?: string }) {
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setStatus("copied");
    } catch {
      setStatus("failed");
    }
    setTimeout(() => setStatus("idle"), 2000);
  };
  return (
    <>
      <button
        type="button"
        onClick={() => void copy()}
        className={`h-9 shrink-0 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-900 hover:bg-slate-50 ${className}`}
      >
        {status === "copied" ? "Copied" : "Copy"}
        <span className="sr-only"> {label}</span>
      </button>
      <span role="status" className="sr-only">
        {status === "copied" ? `${label} copied` : status === "failed" ? `Could not copy: select the ${label} and copy it by hand` : ""}
      </span>
    </>
  );
}
