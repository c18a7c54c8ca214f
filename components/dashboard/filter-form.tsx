import Link from "next/link";
import type { ReactNode } from "react";
import { inputClass, primaryButtonClass } from "./form-field";

/**
 * A dashboard list's filters: a plain GET form, so it works before any script loads and every view has a URL to
 * bookmark or share. Render it with a `key` that changes with the query: its fields are uncontrolled, and after a
 * client-side navigation (Clear filters, a column header) they would keep what was typed before.
 */
export function FilterForm({ action, label, layout, children }: { action: string; label: string; layout: string; children: ReactNode }) {
  return (
    <form
      method="get"
      action={action}
      role="search"
      aria-label={label}
      className={`grid gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 ${layout}`}
    >
      {children}
    </form>
  );
}

/** One labelled field of a filter form; `note` is a quieter word after the label ("(UTC)"). */
export function FilterField({
  id,
  label,
  note,
  className = "",
  children,
}: {
  id: string;
  label: string;
  note?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm font-semibold text-slate-900">
        {label}
        {note && <span className="font-normal text-slate-600"> {note}</span>}
      </label>
      {children}
    </div>
  );
}

type Choice = string | { value: string; label: string };

/** A choice among `choices`, or any (the empty value, named `any`) when `any` is given. */
export function FilterSelect({ id, name, value, any, choices }: { id: string; name: string; value: string; any?: string; choices: readonly Choice[] }) {
  return (
    <select id={id} name={name} defaultValue={value} className={inputClass}>
      {any !== undefined && <option value="">{any}</option>}
      {choices.map((c) => {
        const { value: v, label } = typeof c === "string" ? { value: c, label: c } : c;
        return (
          <option key={v} value={v}>
            {label}
          </option>
        );
      })}
    </select>
  );
}

/** Apply, and (with `clearHref`) a link back to the unfiltered list, with what else the list offers after them. */
export function FilterActions({ clearHref, className = "", children }: { clearHref?: string; className?: string; children?: ReactNode }) {
  return (
    <div className={`flex flex-wrap items-center gap-3 ${className}`}>
      <button type="submit" className={primaryButtonClass}>
        Apply
      </button>
      {clearHref && (
        <Link href={clearHref} className="text-sm font-semibold text-brand-700 underline-offset-4 hover:underline">
          Clear filters
        </Link>
      )}
      {children}
    </div>
  );
}
