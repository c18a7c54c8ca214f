import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireMerchant } from "@/lib/dashboard/http/auth";

export const metadata: Metadata = { title: "Not found" };

/**
 * Any other address under /dashboard: signed out, the sign-in page; signed in, the dashboard's own "not found", inside
 * its header and nav, rather than the shop's. Every section has its own page, which takes precedence.
 */
export default async function UnknownSection() {
  await requireMerchant();
  notFound();
}
