import type { ProductKind } from "./product-input";

export type CardColors = { bg: string; fg: string };

// Used for brands the catalog data gives no colours for: picked by a hash of the name, so always the same.
const PALETTE: CardColors[] = [
  { bg: "#1e3a8a", fg: "#ffffff" },
  { bg: "#065f46", fg: "#ffffff" },
  { bg: "#7c2d12", fg: "#ffffff" },
  { bg: "#581c87", fg: "#ffffff" },
  { bg: "#0f172a", fg: "#f8fafc" },
  { bg: "#9f1239", fg: "#ffffff" },
  { bg: "#155e75", fg: "#ffffff" },
  { bg: "#fde68a", fg: "#1c1917" },
];

export function fallbackColors(brand: string): CardColors {
  let h = 0;
  for (const ch of brand) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length] ?? PALETTE[0]!;
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c);

const KIND_CAPTION: Record<ProductKind, string> = { gift_card: "GIFT CARD", esim: "eSIM · DATA", topup: "MOBILE TOP-UP" };

/** A product picture drawn from its brand, kind and country: an SVG card (no logos are shipped). */
export function productCardSvg(p: { brand: string; kind: ProductKind; label: string; colors: CardColors }): string {
  const { bg, fg } = p.colors;
  const brand = escapeXml(p.brand);
  const size = p.brand.length > 16 ? 26 : p.brand.length > 10 ? 32 : 40;
  const icon =
    p.kind === "esim"
      ? `<rect x="322" y="26" width="48" height="60" rx="8" fill="none" stroke="${fg}" stroke-width="3" opacity=".7"/><rect x="334" y="48" width="24" height="24" rx="3" fill="${fg}" opacity=".7"/>`
      : p.kind === "topup"
        ? `<g fill="${fg}" opacity=".7"><rect x="326" y="66" width="8" height="16" rx="2"/><rect x="340" y="54" width="8" height="28" rx="2"/><rect x="354" y="42" width="8" height="40" rx="2"/><rect x="368" y="30" width="8" height="52" rx="2"/></g>`
        : `<rect x="322" y="32" width="52" height="38" rx="6" fill="${fg}" opacity=".25"/><rect x="330" y="42" width="16" height="12" rx="2" fill="${fg}" opacity=".7"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 250" width="400" height="250" role="img" aria-label="${brand}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${bg}"/><stop offset="1" stop-color="${bg}" stop-opacity=".82"/></linearGradient></defs>
<rect width="400" height="250" rx="20" fill="${bg}"/><rect width="400" height="250" rx="20" fill="url(#g)"/>
<circle cx="360" cy="230" r="120" fill="${fg}" opacity=".07"/><circle cx="40" cy="-20" r="90" fill="${fg}" opacity=".05"/>
${icon}
<text x="28" y="142" font-family="ui-sans-serif,system-ui,Segoe UI,Roboto,Helvetica,Arial,sans-serif" font-size="${size}" font-weight="700" fill="${fg}">${brand}</text>
<text x="28" y="214" font-family="ui-sans-serif,system-ui,Segoe UI,Roboto,Helvetica,Arial,sans-serif" font-size="15" font-weight="600" letter-spacing="1.5" fill="${fg}" opacity=".85">${escapeXml(KIND_CAPTION[p.kind])}</text>
<text x="372" y="214" text-anchor="end" font-family="ui-sans-serif,system-ui,Segoe UI,Roboto,Helvetica,Arial,sans-serif" font-size="15" font-weight="700" fill="${fg}" opacity=".85">${escapeXml(p.label)}</text>
</svg>`;
}
