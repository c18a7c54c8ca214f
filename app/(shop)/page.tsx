import Link from "next/link";
import { cookies } from "next/headers";
import { COUNTRY_COOKIE } from "@/components/shop/country-cookie";
import { CountrySelect } from "@/components/shop/country-select";
import { KindTabs, parseKind } from "@/components/shop/kind-tabs";
import { ProductGrid } from "@/components/shop/product-card";
import { SearchForm } from "@/components/shop/search-form";
import { FirstTenMinutes } from "@/components/shop/first-ten-minutes";
import { config } from "@/lib/platform/config";
import { catalogFacts, countryName, KIND_LABELS, listCountries, listFeatured, listPopularBrands, type CatalogFacts } from "@/lib/catalog";

export const dynamic = "force-dynamic";

export default async function HomePage({ searchParams }: { searchParams: Promise<{ kind?: string }> }) {
  const kind = parseKind((await searchParams).kind) ?? "gift_card";
  const remembered = (await cookies()).get(COUNTRY_COOKIE)?.value?.toUpperCase();
  const countries = await listCountries();
  const country = countries.some((c) => c.code === remembered) ? remembered : undefined;
  const [featured, brands, facts, topBrands] = await Promise.all([
    listFeatured({ kind, country, limit: 8 }),
    listPopularBrands({ country, limit: 12 }),
    catalogFacts(),
    listPopularBrands({ limit: 3 }),
  ]);
  const where = country ? countryName(country) : undefined;

  return (
    <div className="flex flex-col gap-10">
      <section className="rounded-3xl bg-gradient-to-br from-brand-700 to-brand-500 px-5 py-10 text-white sm:px-10 sm:py-14">
        <h1 className="max-w-2xl text-3xl font-bold tracking-tight sm:text-4xl">Gift cards, eSIMs and top-ups. Paid in USDC.</h1>
        <p className="mt-3 max-w-2xl text-brand-50">
          {catalogSentence(
            facts,
            topBrands.map((b) => b.brand),
          )}{" "}
          Pay from your wallet; codes arrive in seconds.
        </p>
        <div className="mt-6 max-w-2xl">
          <SearchForm size="large" id="home-search" hidden={{ country }} />
        </div>
      </section>

      {config().networkMode === "devnet" && <FirstTenMinutes />}

      <section aria-labelledby="featured-heading" className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="featured-heading" className="text-xl font-bold text-slate-900">
            Popular {KIND_LABELS[kind].many.toLowerCase()}
            {where ? ` for ${where}` : ""}
          </h2>
          <CountrySelect countries={countries} value={country} />
        </div>
        <KindTabs active={kind} hrefFor={(k) => `/?kind=${k}`} />
        {featured.length > 0 ? (
          <ProductGrid products={featured} priorityCount={4} />
        ) : (
          <p className="rounded-xl bg-white p-6 text-slate-700">
            No {KIND_LABELS[kind].many.toLowerCase()} for {where ?? "this country"} yet.{" "}
            <Link className="font-semibold text-brand-700 underline" href={`/search?kind=${kind}`}>
              See all countries
            </Link>
          </p>
        )}
        <p>
          <Link href={`/search?kind=${kind}${country ? `&country=${country}` : ""}`} className="text-sm font-semibold text-brand-700 hover:underline">
            All {KIND_LABELS[kind].many.toLowerCase()}
            {where ? ` for ${where}` : ""} →
          </Link>
        </p>
      </section>

      {brands.length > 0 && (
        <section aria-labelledby="brands-heading" className="flex flex-col gap-4">
          <h2 id="brands-heading" className="text-xl font-bold text-slate-900">
            Popular brands
          </h2>
          <ul className="flex flex-wrap gap-2">
            {brands.map((b) => (
              <li key={b.brand}>
                <Link
                  href={`/search?q=${encodeURIComponent(b.brand)}${country ? `&country=${country}` : ""}`}
                  className="inline-flex h-10 items-center rounded-full border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:border-brand-500 hover:text-brand-700"
                >
                  {b.brand}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/**
 * What the shop sells, counted from the catalog (never written down, so never out of date): "790 products from
 * brands like Amazon, Steam and Netflix, travel data for 120 countries and airtime for 95 mobile operators."
 */
function catalogSentence(facts: CatalogFacts, topBrands: string[]): string {
  if (facts.products === 0) return "";
  const like = topBrands.length > 1 ? ` like ${topBrands.slice(0, -1).join(", ")} and ${topBrands.at(-1)}` : "";
  const parts = [
    facts.giftCardBrands > 0 ? `gift cards from ${count(facts.giftCardBrands, "brand", "brands")}${like}` : null,
    facts.esimCountries > 0 ? `travel data for ${count(facts.esimCountries, "country", "countries")}` : null,
    facts.operators > 0 ? `airtime for ${count(facts.operators, "mobile operator", "mobile operators")}` : null,
  ].filter((p): p is string => p !== null);
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : (parts[0] ?? "");
  return `${count(facts.products, "product", "products")}${list ? `: ${list}` : ""}.`;
}
