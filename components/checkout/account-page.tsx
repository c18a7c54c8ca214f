import Link from "next/link";

/** The frame of the account pages: title, and the links between them. */
export function AccountPage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        <nav aria-label="Account" className="flex gap-4 text-sm font-semibold">
          <Link href="/account/orders" className="text-brand-700 hover:underline">Orders</Link>
          <Link href="/account/esims" className="text-brand-700 hover:underline">eSIMs</Link>
        </nav>
      </div>
      {children}
    </div>
  );
}
