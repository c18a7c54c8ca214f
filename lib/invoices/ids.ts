import { ulid } from "ulid";

/** Prefixed, time-sortable ids that say what they are: `inv_01J…`, `ord_01J…`. */
export function newId(prefix: "inv" | "ord"): string {
  return `${prefix}_${ulid()}`;
}

export const isInvoiceId = (s: string) => /^inv_[0-9A-HJKMNP-TV-Z]{26}$/.test(s);
