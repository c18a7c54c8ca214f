"use client";

// The x402 client libraries are loaded when a payment or a sign-in needs them, not with the pages that show a cart.
import type { SchemeNetworkClient } from "@x402/core/types";
import type { SIWxExtension, SIWxSigner } from "@x402/extensions/sign-in-with-x";
import type { z } from "zod";
import { formatUsdcDecimal } from "@/lib/catalog/pricing";
// Types only: the answers' shapes are the ones the /x402 API's OpenAPI document is made from.
import type {
  InvoiceCreated,
  InvoicePaid,
  InvoiceStatusBody,
  Redemption as RedemptionSchema,
  Session as SessionSchema,
  WalletEsims,
  WalletOrders,
} from "@/lib/api/x402/x402-schemas";

/** A refusal from the shop's API, with its documented code. */
export class ShopApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The request's field the refusal is about (`gift_card_code`), when the shop names one. */
    readonly field?: string,
    /** Seconds to wait before trying again (a 429's Retry-After). */
    readonly retryAfter?: number,
    /** Why, when the shop says more than the code (`store_gift_card`: a gift card cannot pay for the store gift card). */
    readonly reason?: string,
  ) {
    super(message);
    this.name = "ShopApiError";
  }
}

async function answer<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => null)) as
    | (Record<string, unknown> & {
        code?: string;
        error_code?: string;
        message?: string;
        field?: string;
        reason?: string;
        error?: string | { code?: string; message?: string };
      })
    | null;
  if (!res.ok) {
    // The /x402 API answers `{code, message, field}`, the merchant API `{error_code, message}`, the shop's own JSON
    // routes `{error: {code, message}}`.
    const nested = typeof body?.error === "object" ? body.error : undefined;
    const retryAfter = Number(res.headers.get("Retry-After"));
    throw new ShopApiError(
      res.status,
      body?.code ?? body?.error_code ?? nested?.code ?? (typeof body?.error === "string" ? body.error : undefined) ?? `HTTP_${res.status}`,
      body?.message ?? nested?.message ?? `The shop answered ${res.status}.`,
      typeof body?.field === "string" ? body.field : undefined,
      Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : undefined,
      typeof body?.reason === "string" ? body.reason : undefined,
    );
  }
  return body as T;
}

export type Session = { token: string; expiresAt: number };

/**
 * Signs in at `POST /x402/connect` with one SIGN-IN-WITH-X signature: the server's challenge (domain, nonce) comes
 * from `POST /api/sign-in/challenge`, the wallet signs it, and /x402/connect returns a session token for `X-Access-Token`.
 */
export async function signIn(signer: SIWxSigner, family: "eip155" | "solana", chainId?: string): Promise<Session> {
  const url = new URL("/x402/connect", window.location.origin).toString();
  // The challenge that /x402/connect gives with a 402, from the shop's route that answers it 200: the browser logs
  // every 402 as a failed resource, and a sign-in is not a failure (app/api/sign-in/challenge).
  const challenge = await fetch("/api/sign-in/challenge", { method: "POST", cache: "no-store" });
  const header = challenge.ok ? challenge.headers.get("PAYMENT-REQUIRED") : null;
  if (!header) {
    await answer(challenge);
    throw new ShopApiError(challenge.status, "NO_CHALLENGE", "The shop sent no sign-in challenge.");
  }
  const [{ decodePaymentRequiredHeader }, { createSIWxPayload, encodeSIWxHeader, SIGN_IN_WITH_X }] = await Promise.all([
    import("@x402/core/http"),
    import("@x402/extensions/sign-in-with-x"),
  ]);
  const ext = decodePaymentRequiredHeader(header).extensions?.[SIGN_IN_WITH_X] as SIWxExtension | undefined;
  const chains = ext?.supportedChains ?? [];
  const chain = chains.find((c) => c.chainId === chainId) ?? chains.find((c) => c.chainId.startsWith(`${family}:`));
  if (!ext || !chain)
    throw new ShopApiError(400, "UNSUPPORTED_WALLET", `The shop does not accept sign-in from ${family === "solana" ? "Solana" : "EVM"} wallets here.`);
  const payload = await createSIWxPayload({ ...ext.info, chainId: chain.chainId, type: chain.type }, signer, url);
  const res = await fetch(url, { method: "POST", headers: { "SIGN-IN-WITH-X": encodeSIWxHeader(payload) } });
  const body = await answer<z.infer<typeof SessionSchema>>(res);
  return { token: body.token, expiresAt: Date.now() + body.expires_in * 1000 };
}

export type CartItem = { product_id: string; package_value: string; refill_input?: string };
export type CreatedInvoice = z.infer<typeof InvoiceCreated>;
export type InvoiceStatus = z.infer<typeof InvoiceStatusBody>;
/** What the status route reveals per delivered order: the order's redemption, named by order and package. */
export type Redemption = z.infer<typeof RedemptionSchema>;
export type MyOrders = z.infer<typeof WalletOrders>;
export type MyEsims = z.infer<typeof WalletEsims>;

/** How a shopper pays by a transfer instead of a signature: the method (coin and network) and where refunds go. */
export type ByTransfer = { payment_method: string; refund_address?: string };

/**
 * Locks the cart's price on an invoice; a gift card's code (optional) pays what it can, the wallet the rest (or a
 * transfer to the invoice's own address, `byTransfer`).
 */
export async function createInvoice(token: string, items: CartItem[], giftCardCode?: string, byTransfer?: ByTransfer): Promise<CreatedInvoice> {
  const res = await fetch("/x402/invoice/create", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Access-Token": token },
    body: JSON.stringify({ items, ...(giftCardCode ? { gift_card_code: giftCardCode } : {}), ...byTransfer }),
  });
  return answer<CreatedInvoice>(res);
}

/** A gift card as `POST /api/gift-cards/balance` tells it: amounts are decimal strings in the card's currency. */
export type GiftCardBalance = {
  currency: string;
  value: string;
  balance: string;
  held: string;
  history: { invoice_id: string; amount: string; refunded: string; status: "held" | "spent" | "released"; created_at: string; updated_at: string }[];
};

/** A gift card's balance, held amount and history, by its code (404 `INVALID_GIFT_CARD`; 429 after too many wrong codes). */
export async function giftCardBalance(code: string): Promise<GiftCardBalance> {
  const res = await fetch("/api/gift-cards/balance", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
    cache: "no-store",
  });
  return answer<GiftCardBalance>(res);
}

/** A code as the shopper typed it, in the shop's form: upper case, groups of four joined by dashes. */
export function normalizeGiftCardCode(input: string): string {
  const chars = input.toUpperCase().replace(/[^0-9A-Z]/g, "");
  return chars.match(/.{1,4}/g)?.join("-") ?? "";
}

export async function invoiceStatus(token: string, invoiceId: string): Promise<InvoiceStatus> {
  const res = await fetch(`/x402/invoice/status?invoice_id=${encodeURIComponent(invoiceId)}`, { headers: { "X-Access-Token": token }, cache: "no-store" });
  return answer<InvoiceStatus>(res);
}

type X402Payment = { network: string; asset: string; amountAtomic: bigint; scheme: SchemeNetworkClient };

/**
 * The fetch the browser's x402 client uses: its first request (no payment yet) goes to `requirementsUrl`, which answers
 * the paid route's requirements with 200 (lib/api/x402/requirements-ok.ts), handed to the client as the 402 it stands
 * for, since the browser logs a real 402 as a failed resource; the request that carries the payment goes to the route.
 */
function askingFirst(requirementsUrl: string): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    if (req.headers.has("PAYMENT-SIGNATURE") || req.headers.has("X-PAYMENT")) return fetch(req);
    const res = await fetch(requirementsUrl, { method: req.method, headers: req.headers, body: await req.text() });
    if (res.status !== 200 || !res.headers.has("PAYMENT-REQUIRED")) return res;
    return new Response(await res.text(), { status: 402, headers: res.headers });
  };
}

/**
 * POSTs JSON to a paid route with the browser's x402 client: the route's requirements (from `requirementsUrl`) name the
 * amount on every network; only the chosen one is registered, and the client refuses to sign more than `amountAtomic`
 * of that asset.
 */
async function postPaid<T>(url: string, requirementsUrl: string, body: unknown, opts: X402Payment): Promise<T> {
  const network = opts.network as `${string}:${string}`;
  const [{ x402Client }, { wrapFetchWithPayment }] = await Promise.all([import("@x402/core/client"), import("@x402/fetch")]);
  const client = new x402Client()
    .register(network, opts.scheme)
    .setSpendControls({ maxAmountPerPayment: false, allowedAssets: [{ network, asset: opts.asset, maxAmountPerPayment: opts.amountAtomic.toString() }] });
  const pay = wrapFetchWithPayment(askingFirst(requirementsUrl), client);
  return answer<T>(await pay(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }));
}

/** Pays an invoice (`POST /x402/invoice/pay`): its requirements name its locked price. */
export async function payInvoice(opts: X402Payment & { invoiceId: string }) {
  return postPaid<z.infer<typeof InvoicePaid>>("/x402/invoice/pay", "/api/invoice-payment", { invoice_id: opts.invoiceId }, opts);
}

export type TopupResult = {
  topup_id: string;
  status: "credited" | "pending";
  amount: string;
  currency: "USD";
  balance: string;
  network: string;
  transaction: string;
};

/** Tops up the signed-in merchant's balance (the dashboard's `POST /dashboard/balance/topup`): `amount` in USD. */
export async function topUpBalance(opts: X402Payment & { amount: string }) {
  return postPaid<TopupResult>("/dashboard/balance/topup", "/dashboard/balance/topup/requirements", { amount: opts.amount }, opts);
}

export async function myOrders(token: string, start: number, limit = 10): Promise<MyOrders> {
  return answer<MyOrders>(await fetch(`/x402/my/orders?start=${start}&limit=${limit}`, { headers: { "X-Access-Token": token }, cache: "no-store" }));
}

export async function myEsims(token: string): Promise<MyEsims> {
  return answer<MyEsims>(await fetch("/x402/my/esims", { headers: { "X-Access-Token": token }, cache: "no-store" }));
}

/** What the devnet faucet gives for a price: enough to pay it, and a little more. */
export const faucetAmount = (priceUsdc: string) => String(Math.ceil(Number(priceUsdc)) + 5);

/** Devnet only: mints test USDC to the wallet on a network (the faucet); answers what was sent, for the page to say. */
export async function requestTestUsdc(network: { network: string; name: string }, address: string, amount: string): Promise<string> {
  await answer<unknown>(
    await fetch("/api/dev/faucet", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ network: network.network, address, amount }),
    }),
  );
  return `${formatUsdcDecimal(amount)} sent to your wallet on ${network.name} (test USDC, worth nothing).`;
}

/** How an invoice with an address of its own is paid by a plain transfer, and what arrived (GET /api/pay/{id}). */
export type AddressPayment = {
  address: string;
  /** USDC on Solana (Solana Pay): the invoice's reference key, which the transfer to `address` (the shop's) carries. */
  reference?: string;
  coin: "USDC" | "ETH";
  /** In the coin, and in its smallest unit. */
  amount: string;
  amount_atomic: string;
  exchange_rate: string;
  contract_address?: string;
  payment_uri: string;
  confirmations_required: number;
  confirmations: number;
  received: string;
  received_atomic: string;
  seen: string;
  missing: string;
  credited: string;
};

/** Devnet only: gives the wallet test ether on an EVM network (the faucet), to pay an ether invoice; what was sent, in words. */
export async function requestTestEther(network: { network: string; name: string }, address: string, amount: string): Promise<string> {
  await answer<unknown>(
    await fetch("/api/dev/faucet", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ network: network.network, address, amount, asset: "ETH" }),
    }),
  );
  return `${amount} ether sent to your wallet on ${network.name} (test ether, worth nothing).`;
}

/** A merchant's USDC or ether invoice as its payment page shows it (no codes, no merchant). */
export type PayStatus = {
  invoice_id: string;
  status: "unpaid" | "processing" | "complete" | "denied" | "payment_error";
  payment_status: "unpaid" | "payment_confirmed" | "paid" | "expired" | "denied" | "payment_error";
  amount_usdc: string;
  amount_usdc_atomic: string;
  /** What a gift card of the shop paid of the invoice; `amount_usdc` is the rest. */
  gift_card_usdc?: string;
  network: string;
  network_name: string;
  expires_at: string;
  transaction: string | null;
  coin: "USDC" | "ETH";
  /** Whether a wallet pays it through x402 (one signature); an ether invoice only by a transfer to `by_address`. */
  x402: boolean;
  by_address?: AddressPayment;
};

export async function payStatus(invoiceId: string): Promise<PayStatus> {
  return answer<PayStatus>(await fetch(`/api/pay/${invoiceId}`, { cache: "no-store" }));
}
