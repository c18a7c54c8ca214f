import { ulid } from "ulid";

/** A message id, sent as `webhook-id` on every attempt: prefixed and time-sortable like the other ids (`inv_01J…`). */
export function newMessageId(): string {
  return `msg_${ulid()}`;
}

export const isMessageId = (s: string) => /^msg_[0-9A-HJKMNP-TV-Z]{26}$/.test(s);
