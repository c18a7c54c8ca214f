import { ulid } from "ulid";

type Prefix = "inv" | "ord" | "mer" | "key" | "msg" | "top" | "gcb" | "gc" | "ret";

/**
 * Prefixed, time-sortable ids that say what they are: `inv_01J…`, `ord_01J…`, merchants, keys, webhook messages,
 * top-ups. Below every domain folder: any of them makes ids without importing another.
 */
export function newId(prefix: Prefix): string {
  return `${prefix}_${ulid()}`;
}

const ULID = "[0-9A-HJKMNP-TV-Z]{26}";
/** The pattern of one kind of id (`^inv_<ULID>$`). */
export const idPattern = (prefix: Prefix) => new RegExp(`^${prefix}_${ULID}$`);
const INVOICE = idPattern("inv");
const ORDER = idPattern("ord");
const MESSAGE = idPattern("msg");

export const isInvoiceId = (s: string) => INVOICE.test(s);
export const isOrderId = (s: string) => ORDER.test(s);
export const isMessageId = (s: string) => MESSAGE.test(s);
