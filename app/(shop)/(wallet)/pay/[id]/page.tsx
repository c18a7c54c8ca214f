import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { MerchantPay } from "@/components/checkout/merchant-pay";
import { isInvoiceId } from "@/lib/platform/ids";

export const metadata: Metadata = { title: "Pay an invoice", robots: { index: false } };

/** The payment page of a merchant API invoice paid in USDC: connect a wallet, sign, done. */
export default async function PayPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isInvoiceId(id)) notFound();
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-5">
      <h1 className="text-2xl font-bold text-slate-900">
        Pay invoice <span className="block font-mono text-base break-all text-slate-700">{id}</span>
      </h1>
      <MerchantPay id={id} />
    </div>
  );
}
