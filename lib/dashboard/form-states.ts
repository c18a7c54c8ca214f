import type { Redemption } from "@/lib/fulfilment/providers/types";

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
