import type { Metadata } from "next";
import Link from "next/link";
import { parseKind } from "@/components/shop/kind-tabs";
import { Pagination } from "@/components/shop/pagination";
import { ProductGrid } from "@/components/shop/product-card";
import { SearchFilters } from "@/components/shop/search-filters";
import { countryName, KIND_LABELS, listCountries, search } from "@/lib/catalog";

export const dynamic = "force-dynamic";

type Params = { q?: string; kind?: string; country?: string; page?: string };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function readParams(raw: Record<string, string | string[] | undefined>) {
  const q = one(raw.q)?.slice(0, 100).trim() ?? "";
  const kind = parseKind(one(raw.kind));
  const country = one(raw.country)?.toUpperCase();
  const page = Math.min(Math.max(1, Number.parseInt(one(raw.page) ?? "1", 10) || 1), 10_000);
  return { q, kind, country: country && /^[A-Z]{2}$/.test(country) ? country : undefined, page };
}

export async function generateMetadata({ searchParams }: { searchParams: Promise<Params> }): Promise<Metadata> {
  const { q } = readParams(await searchParams);
  return { title: q ? `“${q}”` : "All products" };
}

export default async function SearchPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { q, kind, country, page } = readParams(await searchParams);
  const [result, countries] = await Promise.all([search({ q, kind, country, page, pageSize: 24 }), listCountries()]);
  const where = country ? (countryName(country) ?? country) : undefined;
  // "gift cards", "top-ups", but "eSIMs": only the first letter is lowered.
  const many = kind ? KIND_LABELS[kind].many : "products";
  const what = many.charAt(0).toLowerCase() + many.slice(1);
  const hrefFor = (changes: Partial<{ q: string; kind: string; country: string; page: number }>) => {
    const next = new URLSearchParams();
    const merged = { q, kind, country, page: undefined as number | undefined, ...changes };
    for (const [k, v] of Object.entries(merged)) if (v !== undefined && v !== "" && !(k === "page" && v === 1)) next.set(k, String(v));
    const s = next.toString();
    return s ? `/search?${s}` : "/search";
  };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold text-slate-900">
          {q ? <>Results for “{q}”</> : `All ${what}`}
          {where ? ` in ${where}` : ""}
        </h1>
        <p className="text-sm text-slate-700" aria-live="polite">
          {result.total === 1 ? "1 product" : `${result.total.toLocaleString("en-US")} products`}
          {q && kind ? ` among ${what}` : ""}
        </p>
      </div>

      <SearchFilters q={q} kind={kind} country={country} countries={countries} />

      {result.items.length > 0 ? (
        <>
          <ProductGrid products={result.items} priorityCount={4} />
          <Pagination page={result.page} pageSize={result.pageSize} total={result.total} hrefFor={(p) => hrefFor({ page: p })} />
        </>
      ) : (
        <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
          <h2 className="text-lg font-semibold text-slate-900">
            No {what} found{q ? ` for “${q}”` : ""}
            {where ? ` in ${where}` : ""}
          </h2>
          <p className="mt-2 text-slate-700">
            Try a brand name (“Amazon”), a country (“Japan”) or a kind of product (“eSIM”), check the spelling, or remove a filter.
          </p>
          <ul className="mt-4 flex flex-wrap justify-center gap-2 text-sm">
            {country && (
              <li>
                <Link className="font-semibold text-brand-700 underline" href={hrefFor({ country: "" })}>
                  Search all countries
                </Link>
              </li>
            )}
            {kind && (
              <li>
                <Link className="font-semibold text-brand-700 underline" href={hrefFor({ kind: "" })}>
                  Search all kinds
                </Link>
              </li>
            )}
            <li>
              <Link className="font-semibold text-brand-700 underline" href="/search">
                Browse everything
              </Link>
            </li>
          </ul>
        </div>
      )}
    </div>
  );
}
