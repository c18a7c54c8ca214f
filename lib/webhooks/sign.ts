import { Webhook } from "standardwebhooks";

/**
 * The three Standard Webhooks headers of one attempt. `webhook-signature` holds one `v1,<base64>` signature per secret,
 * space-separated: during a rotation the current and the previous secret both sign, so a receiver that still has the
 * old one keeps verifying. The timestamp is the attempt's (receivers refuse one more than 5 minutes off their clock).
 */
export function signatureHeaders(msg: { id: string; body: string; secrets: string[]; timestamp: Date }): Record<string, string> {
  if (msg.secrets.length === 0) throw new Error("a webhook needs at least one signing secret");
  return {
    "webhook-id": msg.id,
    "webhook-timestamp": String(Math.floor(msg.timestamp.getTime() / 1000)),
    "webhook-signature": msg.secrets.map((s) => new Webhook(s).sign(msg.id, msg.timestamp, msg.body)).join(" "),
  };
}
