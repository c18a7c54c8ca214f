import Link from "next/link";
import { BrandMark, SkipToContent } from "@/components/ui/brand";
import { DashboardNav } from "./dashboard-nav";

/** The dashboard's frame on every signed-in page: the shop's mark, the merchant, Sign out, and the section tabs. */
export function DashboardHeader({ merchantName, signOut }: { merchantName: string; signOut: () => Promise<void> }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <SkipToContent />
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 pt-3">
        <Link href="/dashboard" className="flex shrink-0 items-center gap-2 text-lg font-bold tracking-tight text-slate-900">
          <BrandMark />
          <span className="sr-only sm:not-sr-only">Storefront</span>
          <span className="rounded-md bg-slate-100 px-2 py-0.5 text-xs font-semibold tracking-wide text-slate-700 uppercase">Merchant</span>
        </Link>
        <p className="ml-auto min-w-0 truncate text-sm text-slate-700" title={merchantName}>
          <span className="sr-only">Signed in as </span>
          <span className="font-semibold text-slate-900">{merchantName}</span>
        </p>
        <form action={signOut}>
          <button
            type="submit"
            className="h-9 shrink-0 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold whitespace-nowrap text-slate-900 hover:bg-slate-50"
          >
            Sign out
          </button>
        </form>
      </div>
      <div className="mx-auto max-w-6xl sm:px-4">
        <DashboardNav />
      </div>
    </header>
  );
}
