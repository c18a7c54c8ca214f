import type { Metadata } from "next";

export const metadata: Metadata = {
  title: { default: "Merchant dashboard", template: "%s · Merchant dashboard" },
  robots: { index: false, follow: false },
};

export default function DashboardRootLayout({ children }: { children: React.ReactNode }) {
  return children;
}
