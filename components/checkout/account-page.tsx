import Link from "next/link";

/** The frame of the account pages: title, and the links between them. */
const LINKS = [
  { key: "orders", href: "/account/orders", label: "Orders" },
  { key: "esims", href: "/account/esims", label: "eSIMs" },
] as const;

export function AccountPage({ title, current, children }: { title: string; current: (typeof LINKS)[number]["key"]; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        <nav aria-label="Account" className="flex gap-4 text-sm font-semibold">
          {LINKS.map((l) => (
            <Link
              key={l.key}
              href={l.href}
              aria-current={l.key === current ? "page" : undefined}
              className="text-brand-700 underline-offset-4 hover:underline aria-[current=page]:text-slate-900 aria-[current=page]:underline"
            >
              {l.label}
            </Link>
          ))}
        </nav>
      </div>
      {children}
    </div>
  );
}
