import Link from "next/link";

export default function NotFound() {
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-2xl font-bold text-slate-900">Page not found</h1>
      <p className="text-slate-700">There is nothing at this address.</p>
      <Link href="/" className="font-semibold text-brand-700 hover:underline">
        Go to the shop
      </Link>
    </main>
  );
}
