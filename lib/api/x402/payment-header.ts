import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { PaymentPayloadV1Schema, PaymentPayloadV2Schema } from "@x402/core/schemas";
import { ApiError } from "@/lib/platform/http/api-error";

/** x402 v1 network names, for v1 clients that name a network the v1 way. */
const V1_NETWORK_NAMES: Record<string, string> = {
  base: "eip155:8453",
  "base-sepolia": "eip155:84532",
  arbitrum: "eip155:42161",
  "arbitrum-sepolia": "eip155:421614",
  polygon: "eip155:137",
  "polygon-amoy": "eip155:80002",
  solana: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
  "solana-devnet": "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
};

const malformed = (why: string) =>
  new ApiError(400, "INVALID_PAYMENT", `Malformed payment header: ${why}. Send PAYMENT-SIGNATURE as base64 of the x402 PaymentPayload JSON.`);

/** The headers a payment comes in, in the order they are read: PAYMENT-SIGNATURE (x402 v2), X-PAYMENT (v1 clients). */
export const PAYMENT_HEADERS = ["payment-signature", "x-payment"] as const;

/** The payment a request carries: PAYMENT-SIGNATURE (x402 v2), or X-PAYMENT from v1 clients. */
export function paymentHeader(req: Request): string | undefined {
  for (const name of PAYMENT_HEADERS) {
    const value = req.headers.get(name);
    if (value !== null) return value;
  }
  return undefined;
}

/**
 * Decodes a payment header into a v2 PaymentPayload. A v1 payload (`{x402Version: 1, scheme, network, payload}`)
 * is lifted to v2 by attaching the requirement it chose among ours. Throws a 400 ApiError when the header is not
 * a payment at all; a well-formed payment for something we did not offer is left for matching to refuse.
 */
export function decodePaymentHeader(header: string, offered: PaymentRequirements[]): PaymentPayload {
  const text = header.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 === 1) throw malformed("not base64");
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, "base64").toString("utf8"));
  } catch {
    throw malformed("not base64-encoded JSON");
  }
  const version = typeof json === "object" && json !== null && "x402Version" in json ? json.x402Version : undefined;
  if (version === 2) {
    const v2 = PaymentPayloadV2Schema.safeParse(json);
    if (!v2.success) throw malformed(describe(v2.error));
    return v2.data as PaymentPayload;
  }
  if (version === 1) {
    const v1 = PaymentPayloadV1Schema.safeParse(json);
    if (!v1.success) throw malformed(describe(v1.error));
    const network = V1_NETWORK_NAMES[v1.data.network] ?? v1.data.network;
    const accepted = offered.find((r) => r.scheme === v1.data.scheme && r.network === network);
    if (!accepted) {
      throw new ApiError(400, "UNSUPPORTED_NETWORK", `This server does not take ${v1.data.scheme} payments on ${v1.data.network}.`, {
        networks: offered.map((r) => r.network),
      });
    }
    return { x402Version: 2, accepted, payload: v1.data.payload as Record<string, unknown> } as PaymentPayload;
  }
  throw malformed("x402Version must be 1 or 2");
}

function describe(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const i = error.issues[0];
  return i ? `${i.path.map(String).join(".") || "payload"}: ${i.message}` : "invalid payload";
}
