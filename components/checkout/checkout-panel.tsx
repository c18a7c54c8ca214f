"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { clearCartPaidBy, rememberCartInvoice, useCart, type CartLine } from "@/components/cart/cart-store";
import { GiftCardCodeInput } from "@/components/gift-cards/code-input";
import { ConnectWallet } from "@/components/wallet/connect-wallet";
import { signInAgainReason, useSession } from "@/components/wallet/session";
import { useShopWallet } from "@/components/wallet/use-shop-wallet";
import { useWalletSetup } from "@/components/wallet/wallet-providers";
import { isSolanaMethod, PayByTransferChoice, refundAddressProblem, transferMethods } from "./pay-by-transfer";
import { createInvoice, ShopApiError, type CartItem } from "./shop-api";
import { useAction } from "./use-action";

/** The cart as invoice items: one item per unit, as the API takes them. */
export function cartItems(lines: CartLine[]): CartItem[] {
  return lines.flatMap((l) =>
    Array.from({ length: l.quantity }, () => ({
      product_id: l.productId,
      package_value: l.packageValue,
      ...(l.recipient ? { refill_input: l.recipient } : {}),
    })),
  );
}

function Step({ n, title, done, children }: { n: number; title: string; done: boolean; children: React.ReactNode }) {
  return (
    <li className="flex gap-3">
      <span
        aria-hidden="true"
        className={`flex size-7 shrink-0 items-center justify-center rounded-full text-sm font-bold ${done ? "bg-emerald-600 text-white" : "bg-slate-200 text-slate-800"}`}
      >
        {done ? "✓" : n}
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <h3 className="font-semibold text-slate-900">
          {title}
          {done && <span className="sr-only"> (done)</span>}
        </h3>
        {children}
      </div>
    </li>
  );
}

/** Why the shop refused a gift card's code, in the shopper's words; undefined when the refusal is about something else. */
export function giftCardRefusal(err: unknown): string | undefined {
  if (!(err instanceof ShopApiError)) return undefined;
  if (err.code === "INVALID_GIFT_CARD") return "No gift card has this code. Check it and try again, or leave the field empty to pay with your wallet.";
  if (err.code === "GIFT_CARD_UNAVAILABLE") return "This gift card cannot be used just now (its currency has no current exchange rate). Try again later.";
  if (err.code === "GIFT_CARD_EMPTY") return "This gift card has nothing left on it. Use another code, or leave the field empty to pay with your wallet.";
  if (err.reason === "store_gift_card")
    return "A gift card cannot pay for an x402 Storefront gift card. Leave the field empty to pay with your wallet, or buy the gift card on its own.";
  if (err.field === "gift_card_code") return err.message;
  // Wrong codes are limited per address and wallet: a code sent with too many wrong ones before is not looked up.
  if (err.status === 429) return `Too many tries with wrong codes: wait ${err.retryAfter ?? 60} seconds before you try again.`;
  return undefined;
}

/**
 * Checkout from the cart: connect a wallet, sign in once (SIWX, the token is shared by the browser's tabs), then lock the cart's
 * price on an invoice and go pay it. The cart stays until the invoice is paid.
 */
export function CheckoutPanel() {
  const lines = useCart();
  const wallet = useShopWallet();
  const { session, why, signIn } = useSession(wallet);
  const again = wallet ? signInAgainReason(why) : null;
  const router = useRouter();
  const { busy, error, run } = useAction<"sign-in" | "invoice">();
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string | null>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const id = useId();
  const methods = transferMethods(useWalletSetup());
  const [byTransfer, setByTransfer] = useState(false);
  const [method, setMethod] = useState<string | null>(null);
  // The connected wallet is the refund address (when it is of the method's chain) unless the shopper types another.
  const [refundTyped, setRefundTyped] = useState<string | null>(null);
  const chosenMethod = method ?? methods[0]?.method ?? "";
  const refundFamily = isSolanaMethod(chosenMethod) ? "solana" : "eip155";
  const refundAddress = refundTyped ?? (wallet?.family === refundFamily ? wallet.address : "");
  const [refundError, setRefundError] = useState<string | null>(null);
  if (lines.length === 0) return null;

  const checkout = () =>
    run("invoice", async () => {
      setCodeError(null);
      const problem = byTransfer ? refundAddressProblem(refundAddress, refundFamily === "solana") : null;
      setRefundError(problem);
      if (problem) return;
      const token = session?.token ?? (await signIn()).token;
      const transfer = byTransfer ? { payment_method: chosenMethod, ...(refundAddress.trim() ? { refund_address: refundAddress.trim() } : {}) } : undefined;
      let invoice;
      try {
        invoice = await createInvoice(token, cartItems(lines), code.trim() || undefined, transfer);
      } catch (err) {
        // A refused code is the field's to tell: the cart and the rest of the checkout stay as they are.
        const refusal = code.trim() ? giftCardRefusal(err) : undefined;
        if (refusal === undefined) throw err;
        setCodeError(refusal);
        codeInput.current?.focus();
        return;
      }
      rememberCartInvoice(invoice.invoice_id);
      // A card that paid it all: the invoice is paid and on its way, and the cart is bought.
      if (invoice.status === "paid") clearCartPaidBy(invoice.invoice_id);
      router.push(`/invoices/${invoice.invoice_id}`);
    });

  return (
    <section aria-labelledby="checkout-heading" className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <h2 id="checkout-heading" className="text-lg font-bold text-slate-900">
        Checkout
      </h2>
      <ol className="flex flex-col gap-4">
        <Step n={1} title="Connect a wallet" done={wallet !== null}>
          <ConnectWallet wallet={wallet} />
        </Step>
        <Step n={2} title="Sign in with your wallet" done={session !== null}>
          <p className="text-sm text-slate-700">
            One signature proves the wallet is yours; it costs nothing, and keeps you signed in for a day in every tab of this browser. Only this wallet will
            see your codes.
          </p>
          {again && !session && <p className="text-sm font-medium text-slate-800">{again}</p>}
          {wallet && !session && (
            <button
              type="button"
              disabled={busy !== null}
              onClick={() => run("sign-in", signIn)}
              className="h-11 w-fit rounded-xl border border-slate-300 bg-white px-4 font-semibold text-slate-900 shadow-sm hover:bg-slate-50 disabled:opacity-60"
            >
              {busy === "sign-in" ? "Waiting for your wallet…" : "Sign in"}
            </button>
          )}
        </Step>
        <Step n={3} title="Lock the price and pay" done={false}>
          <p className="text-sm text-slate-700">The invoice holds this price for a few minutes while you pay.</p>
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              if (wallet && busy === null) void checkout();
            }}
            className="flex flex-col gap-3"
          >
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-gift-card`} className="text-sm font-semibold text-slate-900">
                Gift card code <span className="font-normal text-slate-600">(optional)</span>
              </label>
              <GiftCardCodeInput
                ref={codeInput}
                id={`${id}-gift-card`}
                name="gift_card_code"
                value={code}
                onValue={(v) => {
                  setCode(v);
                  setCodeError(null);
                }}
                invalid={codeError !== null}
                aria-describedby={`${id}-gift-card-hint${codeError ? ` ${id}-gift-card-error` : ""}`}
              />
              <p id={`${id}-gift-card-hint`} className="text-sm text-slate-700">
                One of this shop&apos;s gift cards pays first; your wallet pays the rest.{" "}
                <Link href="/gift-cards/balance" className="font-medium text-brand-700 underline">
                  Check a card&apos;s balance
                </Link>
              </p>
              {codeError && (
                <p id={`${id}-gift-card-error`} role="alert" className="text-sm font-medium text-red-700">
                  {codeError}
                </p>
              )}
            </div>
            <PayByTransferChoice
              methods={methods}
              byTransfer={byTransfer}
              onByTransfer={setByTransfer}
              method={chosenMethod}
              onMethod={(m) => {
                // A typed address of the other chain would not do.
                if (isSolanaMethod(m) !== isSolanaMethod(chosenMethod)) setRefundTyped(null);
                setMethod(m);
              }}
              refundAddress={refundAddress}
              onRefundAddress={(v) => {
                setRefundTyped(v);
                setRefundError(null);
              }}
              refundError={refundError}
            />
            <button
              type="submit"
              disabled={!wallet || busy !== null}
              className="h-11 w-full rounded-xl bg-brand-600 px-6 font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-400 sm:w-fit"
            >
              {busy === "invoice" ? "Creating your invoice…" : "Continue to payment"}
            </button>
          </form>
        </Step>
      </ol>
      <p role="alert" aria-live="assertive" className="text-sm font-medium text-red-700 empty:sr-only">
        {error}
      </p>
    </section>
  );
}
