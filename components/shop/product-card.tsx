import Image from "next/image";
import Link from "next/link";
import { countryLabel, KIND_LABELS, type ProductSummary } from "@/lib/catalog";
import { PriceRange } from "./price-range";

export function ProductCard({ product, priority = false }: { product: ProductSummary; priority?: boolean }) {
  return (
    <Link
      href={`/products/${product.slug}`}
      className="group flex w-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition hover:-translate-y-0.5 hover:shadow-md"
    >
      <Image src={product.image} alt="" width={400} height={250} unoptimized priority={priority} className="aspect-[8/5] w-full bg-slate-100 object-cover" />
      <div className="flex flex-1 flex-col gap-1 p-3">
        <h3 className="text-sm leading-snug font-semibold text-slate-900 group-hover:text-brand-700">{product.name}</h3>
        <p className="text-xs text-slate-600">
          {KIND_LABELS[product.kind].one} · {countryLabel(product)}
        </p>
        <p className="mt-auto pt-1 text-sm font-semibold text-slate-900">
          <PriceRange from={product.priceFromUsdc} to={product.priceToUsdc} />
        </p>
        {!product.inStock && <p className="text-xs font-medium text-amber-800">Out of stock</p>}
      </div>
    </Link>
  );
}

export function ProductGrid({ products, priorityCount = 0 }: { products: ProductSummary[]; priorityCount?: number }) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4">
      {products.map((p, i) => (
        <li key={p.slug} className="flex">
          <ProductCard product={p} priority={i < priorityCount} />
        </li>
      ))}
    </ul>
  );
}
