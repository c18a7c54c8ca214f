import type { Metadata } from "next";
import { PageNotFound } from "@/components/shop/page-not-found";
import { ShopFrame } from "@/components/shop/shop-frame";

export const metadata: Metadata = { title: "Page not found", robots: { index: false } };

/** An address nothing answers: inside the shop's header and footer, with a search and the way home. */
export default function NotFound() {
  return (
    <ShopFrame>
      <PageNotFound />
    </ShopFrame>
  );
}
