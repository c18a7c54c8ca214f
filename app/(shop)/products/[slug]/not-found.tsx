import Link from "next/link";
import { SearchForm } from "@/components/shop/search-form";

export default function ProductNotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 py-12 text-center">
      <h1 className="text-2xl font-bold text-slate-900">We could not find that product</h1>
      <p className="text-slate-700">It may have been renamed or removed from the catalog. Try a search instead.</p>
      <SearchForm id="notfound-search" />
      <Link href="/" className="text-sm font-semibold text-brand-700 hover:underline">
        Back to the shop
      </Link>
    </div>
  );
}
