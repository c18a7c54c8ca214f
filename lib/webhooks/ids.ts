import { isMessageId, newId } from "@/lib/platform/ids";

/** A message id, sent as `webhook-id` on every attempt: prefixed and time-sortable like the other ids (`inv_01J…`). */
export const newMessageId = () => newId("msg");

export { isMessageId };
