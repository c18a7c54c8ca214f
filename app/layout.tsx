import type { Metadata, Viewport } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "x402 Storefront: gift cards, eSIMs and top-ups for USDC", template: "%s · x402 Storefront" },
  description: "Buy gift cards, travel eSIMs and mobile top-ups from many brands and pay in USDC from your wallet.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#2775ca" };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-dvh">{children}</body>
    </html>
  );
}
