import type { NetworkKey } from "@/lib/platform/networks";

/**
 * Payment methods this shop takes: the balance, a gift card of the shop (`gift_card`, with `gift_card_code`; what it
 * does not cover is paid from the balance), USDC on one network (through x402: the invoice carries its payment URL
 * and a payment page; on an EVM network also by a plain transfer to the invoice's own address), USDC on Ethereum
 * (`usdc_erc20`: by that transfer only), or ether on Ethereum, Base or Arbitrum (`ethereum`, `eth_base`,
 * `eth_arbitrum`: a transfer to the invoice's own address, at a price locked at creation).
 * A `gift_card_code` goes with any of them: the card pays first, the method the rest. Others named by clients
 * (`bitcoin`, `lightning`, …) get `unsupported_payment_method`. The methods paid in a coin (`COIN_METHODS`) are those
 * a shopper's invoice (/x402) may name too.
 */
export const COIN_METHODS = ["usdc_base", "usdc_arbitrum", "usdc_polygon", "usdc_solana", "usdc_erc20", "ethereum", "eth_base", "eth_arbitrum"] as const;
export const PAYMENT_METHODS = ["balance", "gift_card", ...COIN_METHODS] as const;
/** Methods whose invoice is paid from the balance (a gift card's first, with `gift_card`: the rest from the balance). */
export const BALANCE_METHODS: readonly string[] = ["balance", "gift_card"];
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The networks x402 pays on. */
const X402_KEYS: readonly NetworkKey[] = ["base", "arbitrum", "polygon", "solana"];
const keyOf = (s: string): NetworkKey | undefined => X402_KEYS.find((k) => k === s);

/** The network a USDC method pays on through x402 (by its key in lib/platform/networks); undefined for others. */
export function methodNetworkKey(method: string | null): NetworkKey | undefined {
  return method?.startsWith("usdc_") ? keyOf(method.slice("usdc_".length)) : undefined;
}

/** What a method pays by a transfer to an address: its network and coin (USDC, or the network's ether); undefined for others. */
export function methodCoin(method: string | null): { key: NetworkKey; coin: "USDC" | "ETH" } | undefined {
  if (method === "usdc_erc20") return { key: "ethereum", coin: "USDC" };
  if (method === "ethereum") return { key: "ethereum", coin: "ETH" };
  const usdc = methodNetworkKey(method);
  if (usdc) return { key: usdc, coin: "USDC" };
  const eth = method?.startsWith("eth_") ? keyOf(method.slice("eth_".length)) : undefined;
  return eth && eth !== "solana" ? { key: eth, coin: "ETH" } : undefined;
}

/** Methods paid by a transfer to the invoice's own address only (ether, USDC on Ethereum): no x402 way. */
export const isAddressOnlyMethod = (method: string | null): boolean => methodCoin(method) !== undefined && methodNetworkKey(method) === undefined;

/** Methods paid in ether only (no x402 way): their invoices need an address. */
export const isEtherMethod = (method: string | null): boolean => methodCoin(method)?.coin === "ETH";

/**
 * Why a method cannot be taken with the networks this shop runs on (a network its mode or configuration does not
 * have), or undefined when it can: an invoice nobody could pay is refused at creation.
 */
export function unavailableMethod(method: PaymentMethod, networks: readonly { key: NetworkKey }[], mode: string): string | undefined {
  const key = methodCoin(method)?.key;
  if (!key || networks.some((n) => n.key === key)) return undefined;
  const offered = PAYMENT_METHODS.filter((m) => {
    const k = methodCoin(m)?.key;
    return !k || networks.some((n) => n.key === k);
  });
  return `Payment method ${method} is not available on this shop (${mode} mode has no such network). Available: ${offered.join(", ")}.`;
}
