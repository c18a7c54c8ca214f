import Link from "next/link";

export default function DashboardNotFound() {
  return (
    <div className="flex flex-col items-start gap-3">
      <h1 className="text-2xl font-bold text-slate-900">Page not found</h1>
      <p className="text-slate-700">There is nothing at this address in the dashboard.</p>
      <Link href="/dashboard" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
        Go to the overview
      </Link>
    </div>
  );
}
