import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { InvoiceView } from "@/components/checkout/invoice-view";
import { getDb } from "@/lib/platform/db";
import { isInvoiceId } from "@/lib/platform/ids";
import { getInvoice } from "@/lib/checkout";

export const metadata: Metadata = { title: "Invoice", robots: { index: false } };

export default async function InvoicePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // An unknown number answers 404 with the way back to the orders (not-found.tsx), before any wallet is asked for.
  if (!isInvoiceId(id) || !(await getInvoice(await getDb(), id))) notFound();
  return (
    <div className="flex flex-col gap-5">
      <h1 className="text-2xl font-bold text-slate-900">
        Invoice <span className="font-mono text-lg text-slate-700">{id}</span>
      </h1>
      <InvoiceView id={id} />
    </div>
  );
}
