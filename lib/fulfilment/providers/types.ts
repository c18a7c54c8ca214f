import type { Db } from "@/lib/platform/db";
import type { ProductKind, RecipientType } from "@/lib/catalog";
import type { SealedCode } from "@/lib/gift-cards";

/**
 * What the paying wallet receives for one order. Stored as the order's `redemption` (jsonb) and shown as is by the
 * status routes, so its keys are the API's (snake_case) and every value is JSON.
 */
export type Redemption = {
  code?: string;
  pin?: string;
  link?: string;
  instructions?: string;
  /** Free text that fits no other field ("NGN 1,000 airtime sent to +234…"). */
  other?: string;
  /** `YYYY-MM-DD`. */
  expiration_date?: string;
  /** Labelled values a client can list without knowing them (SM-DP+ address, recipient e-mail, …). */
  extra_fields: Record<string, string>;
  barcode_format?: "QRCODE";
  /** What the QR code encodes: an eSIM's LPA activation string. */
  barcode_value?: string;
  iccid?: string;
  /** A new eSIM profile (with its activation), or a bundle added to an eSIM the wallet holds (`topup`, no activation). */
  esim?:
    | {
        iccid: string;
        /** `LPA:1$<smdp>$<matching id>`. */
        lpa: string;
        smdp: string;
        matching_id: string;
        /** data_mb null = unlimited. */
        bundle: EsimBundle;
      }
    | { iccid: string; topup: true; bundle: EsimBundle };
  topup?: { phone_number: string; operator: string; reference: string };
  /**
   * Stored only: the code of the shop's own gift card, sealed as the card's own copy is (lib/gift-cards/codes.ts), so
   * that the database holds no card's code. Readers get it opened as `code` (effectiveOrder, lib/checkout).
   */
  sealed_code?: SealedCode;
};

export type EsimBundle = { value: string; data_mb: number | null; validity_days: number | null };

/**
 * One order as a provider sees it: the facts copied onto the order at checkout, plus the catalog facts a provider
 * needs (brand, instructions, bundle size). Catalog facts are null when the product has since left the catalog.
 */
export type OrderToFulfil = {
  id: string;
  invoiceId: string;
  productId: string;
  productName: string;
  kind: ProductKind;
  packageValue: string;
  faceValueMinor: bigint;
  currency: string;
  /** E.164 phone number, e-mail address, or (eSIM top-ups) the ICCID of the eSIM to add to, as validated at checkout. */
  recipient: string | null;
  /** Who fulfils it, fixed when the order was placed. */
  supplier: "demo" | "inventory" | "upstream" | "store";
  createdAt: Date;
  brand: string | null;
  country: string | null;
  recipientType: RecipientType | null;
  redemptionInstructions: string | null;
  dataMb: number | null;
  validityDays: number | null;
};

/** A provider's answer. A thrown error is none of them: it means "try again later" (retried with backoff). */
export type Delivery =
  | {
      failed: false;
      redemption: Redemption;
      /**
       * What the delivery makes in the shop's own database, written in the transaction that records the order as
       * delivered, and only if this claim still holds the order (the shop's gift card is issued here): it exists
       * exactly when the order is delivered, once, whatever retries, crashes or a second worker do.
       */
      record?: (tx: Db) => Promise<void>;
    }
  /** Permanent: the order will never be delivered (it is refunded). */
  | { failed: true; errorCode: string; message: string }
  /**
   * Under way elsewhere (a supplier that delivers later, or waits for its balance): ask again in `retryInMs`. Not a
   * failure: it does not count towards the attempts after which an order fails; the provider bounds its own wait.
   */
  | { pending: true; retryInMs: number; message: string };

export interface FulfilmentProvider {
  /** Must be idempotent per order id: after a crash the same order may be asked for again. */
  deliver(order: OrderToFulfil): Promise<Delivery>;
}
