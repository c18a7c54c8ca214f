const TONES = {
  green: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  grey: "bg-slate-100 text-slate-700 ring-slate-200",
  amber: "bg-amber-50 text-amber-900 ring-amber-200",
  red: "bg-red-50 text-red-800 ring-red-200",
  blue: "bg-brand-50 text-brand-700 ring-brand-200",
} as const;

export type BadgeTone = keyof typeof TONES;

/** A short status word in a coloured pill; the word itself carries the meaning, the colour only repeats it. */
export function Badge({ tone, children }: { tone: BadgeTone; children: React.ReactNode }) {
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${TONES[tone]}`}>{children}</span>;
}
