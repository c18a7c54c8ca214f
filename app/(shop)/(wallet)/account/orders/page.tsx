import type { Metadata } from "next";
import { AccountPage } from "@/components/checkout/account-page";
import { AccountOrders } from "@/components/checkout/account-views";

export const metadata: Metadata = { title: "Your orders", robots: { index: false } };

export default function AccountOrdersPage() {
  return (
    <AccountPage title="Your orders" current="orders">
      <AccountOrders />
    </AccountPage>
  );
}
