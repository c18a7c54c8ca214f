import type { ComponentProps } from "react";

export const inputClass =
  "h-11 w-full min-w-0 rounded-xl border border-slate-300 bg-white px-3 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-[invalid=true]:border-red-600";

export const primaryButtonClass =
  "h-11 rounded-xl bg-brand-600 px-5 font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-400";

export const secondaryButtonClass =
  "h-11 rounded-xl border border-slate-300 bg-white px-4 font-semibold text-slate-900 shadow-sm hover:bg-slate-50 disabled:opacity-60";

/** The confirming button of a step that cannot be undone (revoke, rotate). */
export const dangerButtonClass = "h-11 rounded-xl bg-red-700 px-4 font-semibold text-white shadow-sm hover:bg-red-800 disabled:bg-slate-400";

/** A labelled input with an optional hint; the label is always visible. */
export function FormField({ label, hint, id, ...input }: { label: string; hint?: string; id: string } & ComponentProps<"input">) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold text-slate-900">
        {label}
      </label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} className={inputClass} {...input} />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * A secret the user signs in with (an API secret, a token): a required password field named by its id, which a
 * password manager fills, marked invalid while the form shows an error.
 */
export function SecretInput({ invalid, ...field }: { id: string; label: string; hint?: string; maxLength: number; invalid: boolean }) {
  return <FormField name={field.id} type="password" autoComplete="current-password" required aria-invalid={invalid || undefined} {...field} />;
}
