/** The shop's categories, as the header links them (a row on wide screens, a menu on phones). */
export const CATEGORIES = [
  { href: "/search?kind=gift_card", label: "Gift cards" },
  { href: "/search?kind=esim", label: "eSIMs" },
  { href: "/search?kind=topup", label: "Top-ups" },
] as const;
