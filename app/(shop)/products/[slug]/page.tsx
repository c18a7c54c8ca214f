import type { Metadata } from "next";
import Image from "next/image";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PackagePicker } from "@/components/shop/package-picker";
import { PriceRange } from "@/components/shop/price-range";
import { exchangeRate, pickerPackages, pickerRange } from "@/components/shop/picker-data";
import { config } from "@/lib/platform/config";
import { isIccid } from "@/lib/catalog/iccid";
import { countryLabel, countryName, getProduct, KIND_LABELS } from "@/lib/catalog";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const product = await getProduct((await params).slug);
  return product ? { title: product.name, description: product.description.slice(0, 160) } : { title: "Product not found" };
}

export default async function ProductPage({ params, searchParams }: Props) {
  const product = await getProduct((await params).slug);
  if (!product) notFound();
  // "Top up this eSIM" links carry the eSIM's ICCID: the bundle bought here is then added to that eSIM.
  const { iccid } = await searchParams;
  const topupIccid = product.kind === "esim" && typeof iccid === "string" && isIccid(iccid) ? iccid : undefined;
  const kind = KIND_LABELS[product.kind];
  const rate = product.currency === "USD" ? null : exchangeRate(product.currency);

  return (
    <article className="flex flex-col gap-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-700">
        <ol className="flex flex-wrap gap-1">
          <li>
            <Link href="/" className="hover:underline">
              Home
            </Link>{" "}
            /
          </li>
          <li>
            <Link href={`/search?kind=${product.kind}`} className="hover:underline">
              {kind.many}
            </Link>{" "}
            /
          </li>
          <li aria-current="page" className="font-medium text-slate-900">
            {product.name}
          </li>
        </ol>
      </nav>

      {/* On a phone, one column: the picture, then the name and the amount picker, then the facts (the left column's
          box gives way to its children, ordered among the right column's), so that the picker starts on the first
          screen. */}
      <div className="grid gap-6 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] md:gap-10">
        <div className="contents md:flex md:flex-col md:gap-4">
          <Image
            src={product.image}
            alt={`${product.brand} ${kind.one.toLowerCase()}`}
            width={400}
            height={250}
            unoptimized
            priority
            className="order-1 mx-auto aspect-[8/5] w-full max-w-72 rounded-2xl bg-slate-100 shadow-sm md:order-none md:max-w-none"
          />
          <dl className="order-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-2xl bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200 md:order-none">
            <dt className="text-slate-600">Brand</dt>
            <dd className="font-medium text-slate-900">{product.brand}</dd>
            <dt className="text-slate-600">Type</dt>
            <dd className="font-medium text-slate-900">{kind.one}</dd>
            <dt className="text-slate-600">{product.country ? "Country" : "Coverage"}</dt>
            <dd className="font-medium text-slate-900">{countryLabel(product)}</dd>
            <dt className="text-slate-600">Currency</dt>
            <dd className="font-medium text-slate-900">{product.currency}</dd>
            {rate && (
              <>
                <dt className="text-slate-600">Exchange rate</dt>
                <dd className="font-medium text-slate-900" data-testid="exchange-rate">
                  1 {product.currency} = {rate.usdPerUnit} USD
                  {rate.asOf && <span className="block text-xs font-normal text-slate-600">rates of {rate.asOf}</span>}
                </dd>
              </>
            )}
            <dt className="text-slate-600">Delivery</dt>
            <dd className="font-medium text-slate-900">
              {product.kind === "topup" ? "Credited to the phone number" : product.kind === "esim" ? "QR code to install" : "Code shown right after payment"}
            </dd>
          </dl>
        </div>

        <div className="order-2 flex flex-col gap-5 md:order-none">
          <div>
            <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{product.name}</h1>
            <p className="mt-1 text-lg font-semibold text-slate-800">
              <PriceRange from={product.priceFromUsdc} to={product.priceToUsdc} />
              <span className="ml-2 text-sm font-normal text-slate-600">paid in USDC</span>
            </p>
            {!product.inStock && (
              <p className="mt-2 inline-block rounded-full bg-amber-100 px-3 py-1 text-sm font-medium text-amber-900">Out of stock for now</p>
            )}
          </div>
          <p className="text-slate-700">{product.description}</p>

          <div className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
            <PackagePicker
              product={{
                slug: product.slug,
                name: product.name,
                image: product.image,
                currency: product.currency,
                recipientType: product.recipientType,
                phonePrefixes: product.phonePrefixes,
                inStock: product.inStock,
              }}
              topupIccid={topupIccid}
              packages={pickerPackages(product)}
              range={pickerRange(product, config().priceMarginBps)}
            />
          </div>

          <section aria-labelledby="redeem-heading" className="flex flex-col gap-2">
            <h2 id="redeem-heading" className="text-lg font-semibold text-slate-900">
              How to redeem
            </h2>
            <p className="whitespace-pre-line text-slate-700">{product.redemptionInstructions}</p>
          </section>

          {product.coverage.length > 1 && (
            <section aria-labelledby="coverage-heading" className="flex flex-col gap-2">
              <h2 id="coverage-heading" className="text-lg font-semibold text-slate-900">
                Works in {product.coverage.length} countries
              </h2>
              <p className="text-sm text-slate-700">
                {product.coverage
                  .map((c) => countryName(c) ?? c)
                  .sort()
                  .join(", ")}
              </p>
            </section>
          )}

          {product.categories.length > 0 && (
            <ul aria-label="Categories" className="flex flex-wrap gap-2">
              {product.categories.map((c) => (
                <li key={c}>
                  <Link
                    href={`/search?q=${encodeURIComponent(c)}`}
                    className="inline-flex rounded-full bg-slate-100 px-3 py-1 text-xs font-medium text-slate-800 hover:bg-slate-200"
                  >
                    {c}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </article>
  );
}
