import type { Metadata } from "next";
import { CartView } from "@/components/cart/cart-view";
import { CheckoutPanel } from "@/components/checkout/checkout-panel";

export const metadata: Metadata = { title: "Cart" };

export default function CartPage() {
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900">Your cart</h1>
      <CartView />
      <CheckoutPanel />
    </div>
  );
}
