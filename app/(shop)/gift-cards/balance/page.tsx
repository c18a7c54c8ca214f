import type { Metadata } from "next";
import { GiftCardBalanceForm } from "@/components/gift-cards/balance-form";

export const metadata: Metadata = { title: "Gift card balance" };

export default function GiftCardBalancePage() {
  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold text-slate-900">Gift card balance</h1>
        <p className="text-slate-700">
          Enter the code of one of this shop&apos;s gift cards to see what is left on it, what open invoices hold, and where it was spent. Use the code in your
          cart at checkout: the card pays first, your wallet the rest.
        </p>
      </div>
      <GiftCardBalanceForm />
    </div>
  );
}
