import type { Metadata } from "next";
import { AccountPage } from "@/components/checkout/account-page";
import { AccountEsims } from "@/components/checkout/account-views";

export const metadata: Metadata = { title: "Your eSIMs", robots: { index: false } };

export default function AccountEsimsPage() {
  return (
    <AccountPage title="Your eSIMs" current="esims">
      <AccountEsims />
    </AccountPage>
  );
}
