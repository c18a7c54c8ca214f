import Link from "next/link";

/** An invoice number the shop does not know (mistyped, or from another shop): the way back to the shopper's orders. */
export default function InvoiceNotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 py-12 text-center">
      <h1 className="text-2xl font-bold text-slate-900">No such invoice</h1>
      <p className="text-slate-700">No invoice has this number. Check the link, or find your invoice among your orders.</p>
      <Link href="/account/orders" className="inline-flex h-11 items-center rounded-xl bg-brand-600 px-5 font-semibold text-white shadow-sm hover:bg-brand-700">
        Your orders
      </Link>
      <Link href="/" className="text-sm font-semibold text-brand-700 hover:underline">
        Back to the shop
      </Link>
    </div>
  );
}
