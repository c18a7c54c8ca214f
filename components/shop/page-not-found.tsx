import Link from "next/link";
import { SearchForm } from "@/components/shop/search-form";

/** What an address nothing answers shows, with a search and the way home: inside whichever frame holds it. */
export function PageNotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 py-12 text-center">
      <h1 className="text-2xl font-bold text-slate-900">Page not found</h1>
      <p className="text-slate-700">There is nothing at this address. Search the shop, or start again from its home page.</p>
      <SearchForm id="notfound-search" />
      <Link href="/" className="font-semibold text-brand-700 hover:underline">
        Go to the shop
      </Link>
    </div>
  );
}
