/**
 * The dashboard's sections, in nav order: one list, so that a new page is one line here. `match` is how the current
 * page is recognised: "exact" for the overview (every path starts with /dashboard), "prefix" for sections with sub-pages.
 */
export const DASHBOARD_NAV = [
  { href: "/dashboard", label: "Overview", match: "exact" },
  { href: "/dashboard/orders", label: "Orders", match: "prefix" },
  { href: "/dashboard/invoices", label: "Invoices", match: "prefix" },
  { href: "/dashboard/webhooks", label: "Webhooks", match: "prefix" },
  { href: "/dashboard/gift-cards", label: "Gift cards", match: "prefix" },
  { href: "/dashboard/balance", label: "Balance", match: "prefix" },
  { href: "/dashboard/keys", label: "API keys", match: "prefix" },
] as const satisfies readonly { href: string; label: string; match: "exact" | "prefix" }[];

export function isCurrent(item: (typeof DASHBOARD_NAV)[number], pathname: string): boolean {
  return item.match === "exact" ? pathname === item.href : pathname === item.href || pathname.startsWith(`${item.href}/`);
}
