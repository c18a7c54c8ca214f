import Link from "next/link";
import { CartLink } from "@/components/cart/cart-link";
import { BrandMark, SkipToContent } from "@/components/ui/brand";
import { CATEGORIES } from "./categories";
import { CategoryMenu } from "./category-menu";
import { SearchForm } from "./search-form";

export function SiteHeader() {
  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur">
      <SkipToContent />
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <Link href="/" className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-900">
          <BrandMark />
          Storefront
        </Link>
        <nav aria-label="Categories" className="hidden items-center gap-4 text-sm font-medium text-slate-700 md:flex">
          {CATEGORIES.map((c) => (
            <Link key={c.href} href={c.href} className="hover:text-brand-700">
              {c.label}
            </Link>
          ))}
        </nav>
        {/* On a phone, the search has a row of its own, with the categories' menu before it. */}
        <div className="order-last flex w-full items-center gap-2 md:order-none md:ml-2 md:w-auto md:flex-1">
          <CategoryMenu />
          <div className="min-w-0 flex-1">
            <SearchForm id="header-search" />
          </div>
        </div>
        <div className="ml-auto flex items-center gap-3 md:ml-0">
          <Link href="/account/orders" className="text-sm font-medium text-slate-700 hover:text-brand-700">
            Orders
          </Link>
          <CartLink />
        </div>
      </div>
    </header>
  );
}
