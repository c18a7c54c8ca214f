import { createHmac } from "node:crypto";
import { formatPackage, luhnCheckDigit } from "@/lib/catalog";
import { sessionKey } from "@/lib/identity";
import { orderRandom, type OrderRandom } from "./deterministic";
import { parseBundle } from "./esim-bundle";
import { giftCardCode } from "./gift-card-code";
import type { Delivery, FulfilmentProvider, OrderToFulfil, Redemption } from "./types";

/** Neutral hosts under the reserved `.example` TLD: nothing real answers there. */
const REDEEM_ORIGIN = "https://redeem.example";
const SMDP_HOST = "smdp.esim.example";
/** ICCID: 89 (telecom) + 44 (country code of the issuer) + 50 (issuer), then the account number and a Luhn digit. */
const ICCID_PREFIX = "894450";
const ICCID_LENGTH = 19;
const LINK_ALPHABET = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const MATCHING_ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DAY_MS = 86_400_000;

/**
 * The demo supplier, for the demo catalog and the test family: delivers at once, codes in each brand's usual shape,
 * the same code every time for the same order (under the key). Products whose slug ends in `-fail` are rejected,
 * so refunds can be exercised.
 */
export function createDemoProvider(key: string): FulfilmentProvider {
  return {
    async deliver(order: OrderToFulfil): Promise<Delivery> {
      if (order.productId.endsWith("-fail")) {
        return { failed: true, errorCode: "PROVIDER_REJECTED", message: `The supplier rejected the order: ${order.productName} always fails (test product).` };
      }
      const r = orderRandom(key, order.id);
      switch (order.kind) {
        case "gift_card":
          return { failed: false, redemption: giftCard(order, r) };
        case "esim":
          return { failed: false, redemption: esim(order, r) };
        case "topup":
          if (!order.recipient) return { failed: true, errorCode: "MISSING_RECIPIENT", message: "A top-up needs the phone number to send it to." };
          return { failed: false, redemption: topup(order, order.recipient, r) };
      }
    },
  };
}

let shared: FulfilmentProvider | undefined;

/**
 * The process's demo provider. Its key is derived from the session secret rather than being a constant in the
 * source: order ids are visible to anyone who pays the status fee, and the codes must not be computable from them.
 */
export function demoProvider(): FulfilmentProvider {
  shared ??= createDemoProvider(createHmac("sha256", sessionKey()).update("demo fulfilment provider").digest("base64url"));
  return shared;
}

function base(order: OrderToFulfil): Pick<Redemption, "instructions" | "extra_fields"> {
  return { ...(order.redemptionInstructions ? { instructions: order.redemptionInstructions } : {}), extra_fields: {} };
}

function giftCard(order: OrderToFulfil, r: OrderRandom): Redemption {
  // A year to three years after the order: cards on sale are never close to expiry.
  const expires = new Date(order.createdAt.getTime() + (365 + r.int("expiry", 731)) * DAY_MS);
  const redemption: Redemption = { ...base(order), expiration_date: expires.toISOString().slice(0, 10) };
  if (order.productId.endsWith("-link")) redemption.link = `${REDEEM_ORIGIN}/g/${r.chars("link", 24, LINK_ALPHABET)}`;
  else Object.assign(redemption, giftCardCode(order.brand, r));
  if (order.recipientType === "email" && order.recipient) redemption.extra_fields.recipient_email = order.recipient;
  return redemption;
}

function esim(order: OrderToFulfil, r: OrderRandom): Redemption {
  // The package row gives data and validity; an order whose package has left the catalog reads them from its value.
  const size = order.validityDays !== null ? { data_mb: order.dataMb, validity_days: order.validityDays } : parseBundle(order.packageValue);
  if (order.recipient) {
    // A top-up: the bundle goes onto the eSIM the wallet already has; there is no new profile to install.
    const iccid = order.recipient;
    return {
      ...base(order),
      other: `${order.packageValue} added to the eSIM ${iccid}. It is active on that eSIM now: nothing to install.`,
      extra_fields: { iccid },
      iccid,
      esim: { iccid, topup: true, bundle: { value: order.packageValue, ...size } },
    };
  }
  const account = r.digits("iccid", ICCID_LENGTH - ICCID_PREFIX.length - 1);
  const iccid = ICCID_PREFIX + account + luhnCheckDigit(ICCID_PREFIX + account);
  const raw = r.chars("matching-id", 20, MATCHING_ID_ALPHABET);
  const matchingId = raw.match(/.{5}/g)!.join("-");
  const lpa = `LPA:1$${SMDP_HOST}$${matchingId}`;
  return {
    ...base(order),
    extra_fields: { smdp_address: SMDP_HOST, activation_code: matchingId },
    barcode_format: "QRCODE",
    barcode_value: lpa,
    iccid,
    esim: { iccid, lpa, smdp: SMDP_HOST, matching_id: matchingId, bundle: { value: order.packageValue, ...size } },
  };
}

function topup(order: OrderToFulfil, phone: string, r: OrderRandom): Redemption {
  const operator = order.brand ?? order.productName;
  // Package values that are amounts are airtime (named as money); the others are data bundles ("2GB, 30 Days").
  const label = formatPackage(order.packageValue, order.currency);
  const what = label === order.packageValue ? `${label} data bundle` : `${label} airtime`;
  return {
    ...base(order),
    other: `${what} sent to ${phone} (${operator}).`,
    topup: { phone_number: phone, operator, reference: `TU${r.digits("reference", 12)}` },
  };
}
