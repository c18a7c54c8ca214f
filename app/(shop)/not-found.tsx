import type { Metadata } from "next";
import { PageNotFound } from "@/components/shop/page-not-found";

export const metadata: Metadata = { title: "Page not found", robots: { index: false } };

/**
 * A shop page that finds nothing at its address (`/pay/<not an invoice id>`): the (shop) layout gives it the shop's
 * frame already, which the root not-found page would add a second time.
 */
export default function ShopNotFound() {
  return <PageNotFound />;
}
