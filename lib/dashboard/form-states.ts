import type { Redemption } from "@/lib/fulfilment";

/** What the dashboard's server actions answer to their forms (`useActionState`). Plain data: it goes to the browser. */

export type SignInState = { mode: "key" | "token"; error?: string; apiId?: string };

/** A credential just issued, as shown once: a key pair, or a personal token. */
export type IssuedKey = { name: string; kind: "business" | "personal"; api_id?: string; api_secret?: string; api_token?: string };

/** After a failure, `name` and `kind` are what was sent, to fill the form again. */
export type CreateKeyState = { error?: string; field?: "name" | "kind"; name?: string; kind?: "business" | "personal"; issued?: IssuedKey };

/** A revocation that worked navigates away (the keys page says so); only a refusal comes back here. */
export type RevokeKeyState = { error?: string };

/** A delivered order's redemption details, shown when the merchant asks (not in the page's HTML before that). */
export type RevealRedemptionState = {
  error?: string;
  redemption?: Redemption & { order_id: string; product_id: string; package_value: string };
};

/** What one webhook attempt made from the dashboard (a redelivery, a test event) got back. */
export type WebhookAttemptOutcome = {
  attempt: number;
  /** A 2xx answer. */
  ok: boolean;
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
  durationMs: number;
};

/** A redelivery's attempt; `endpointDisabled` when its endpoint still holds its other messages. */
export type RedeliverWebhookState = { error?: string; outcome?: WebhookAttemptOutcome & { endpointDisabled: boolean } };

/** A test event: the URL it went to (to fill the form again) and its attempt, logged as message `deliveryId`. */
export type SendTestWebhookState = { error?: string; url?: string; outcome?: WebhookAttemptOutcome & { deliveryId: string; url: string } };

/** A re-enabled endpoint, and how many of its held messages it released. */
export type EnableEndpointState = { error?: string; released?: number };

/**
 * The signing secret, shown when the merchant asks (not in the page's HTML before that), and after a rotation: the
 * previous secret, which keeps signing until `until` (an ISO time).
 */
export type WebhookSecretState = { error?: string; secret?: string; previous?: { secret: string; until: string } | null; rotated?: boolean };

/**
 * A gift card batch bought from the dashboard: after a refusal, its message, the field it is about (none for a balance
 * too low) and what was sent, to fill the form again; after a purchase, the batch as it is now.
 */
export type BuyBatchState = {
  error?: string;
  field?: "quantity" | "value" | "currency";
  values?: { quantity: string; value: string; currency: string };
  bought?: { id: string; status: string; quantity: number; issued: number };
  /** The key of the form's next purchase: a purchase sent again with its key (a retry) buys nothing more. */
  requestKey?: string;
};
