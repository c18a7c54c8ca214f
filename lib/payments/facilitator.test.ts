import { generateKeyPairSync } from "node:crypto";
import type { FacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { JWK } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import {
  AccountRole,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type KeyPairSigner,
} from "@solana/kit";
import type { SenderSync } from "./evm-signer";
import {
  facilitatorAuthHeaders,
  inProcessFacilitator,
  remoteFacilitator,
  SOLANA_MAX_COMPUTE_UNITS,
  SOLANA_MAX_PRIORITY_FEE_MICROLAMPORTS,
  SOLANA_MAX_REQUIRED_SIGNATURES,
} from "./facilitator";
import { standInFacilitator, type Credentials, type StandIn } from "@/test/facilitator";
import { computeUnitLimit, computeUnitPrice } from "@/test/adversarial/solana-compute";
import type { SolanaNetwork } from "@/lib/platform/networks";

// What a hosted facilitator behind the stand-in answers; the devnet test (x402-exchange.db.test.ts) puts the real one there.
const PAYER = "0x000000000000000000000000000000000000dEaD";
const inner = {
  getSupported: async () => ({ kinds: [{ x402Version: 2, scheme: "exact", network: "eip155:84532" }], extensions: [], signers: {} }),
  verify: async () => ({ isValid: true, payer: PAYER }),
  settle: async () => ({ success: true, transaction: `0x${"ab".repeat(32)}`, network: "eip155:84532", payer: PAYER }),
} as unknown as FacilitatorClient;
const payload = { x402Version: 2, accepted: {}, payload: {} } as unknown as PaymentPayload;
const requirements = { scheme: "exact", network: "eip155:84532" } as unknown as PaymentRequirements;

const standIns: StandIn[] = [];
async function standIn(credentials: Credentials) {
  const s = await standInFacilitator(inner, credentials);
  standIns.push(s);
  return s;
}
afterEach(async () => {
  for (const s of standIns.splice(0)) await s.close();
});

/** A CDP API key as CDP hands it out: Ed25519 as base64 of seed and public key, or an EC key in PEM (SEC1). */
function cdpKey(kind: "ed25519" | "ec"): { secret: string; publicJwk: JWK; alg: "EdDSA" | "ES256" } {
  if (kind === "ed25519") {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const jwk = privateKey.export({ format: "jwk" });
    const secret = Buffer.concat([Buffer.from(jwk.d!, "base64url"), Buffer.from(jwk.x!, "base64url")]).toString("base64");
    return { secret, publicJwk: publicKey.export({ format: "jwk" }) as JWK, alg: "EdDSA" };
  }
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { secret: privateKey.export({ format: "pem", type: "sec1" }) as string, publicJwk: publicKey.export({ format: "jwk" }) as JWK, alg: "ES256" };
}

describe("a remote facilitator that wants credentials", () => {
  it("gets the header line on every call", async () => {
    const s = await standIn({ kind: "header", name: "X-Api-Key", value: "fk_live_0123456789" });
    const client = remoteFacilitator(s.url, { kind: "header", name: "X-Api-Key", value: "fk_live_0123456789" });
    expect((await client.getSupported()).kinds).toHaveLength(1);
    expect(await client.verify(payload, requirements)).toMatchObject({ isValid: true });
    expect(await client.settle(payload, requirements)).toMatchObject({ success: true });
    expect(s.calls.map((c) => [c.method, c.path, c.accepted])).toEqual([
      ["GET", "/platform/v2/x402/supported", true],
      ["POST", "/platform/v2/x402/verify", true],
      ["POST", "/platform/v2/x402/settle", true],
    ]);
  });

  it("is refused without them, and the shop's client says so", async () => {
    const s = await standIn({ kind: "header", name: "Authorization", value: "Bearer right" });
    await expect(remoteFacilitator(s.url, { kind: "header", name: "Authorization", value: "Bearer wrong" }).getSupported()).rejects.toThrow(/401/);
    await expect(remoteFacilitator(s.url).getSupported()).rejects.toThrow(/401/);
    expect(s.calls.every((c) => !c.accepted)).toBe(true);
  });

  for (const kind of ["ed25519", "ec"] as const) {
    it(`gets a CDP JWT made for each call, signed with an ${kind === "ec" ? "EC (PEM)" : "Ed25519"} key`, async () => {
      const key = cdpKey(kind);
      const s = await standIn({ kind: "cdp", keyId: "organizations/org-1/apiKeys/key-1", publicJwk: key.publicJwk, alg: key.alg });
      const client = remoteFacilitator(s.url, { kind: "cdp", keyId: "organizations/org-1/apiKeys/key-1", keySecret: key.secret });
      expect((await client.getSupported()).kinds).toHaveLength(1);
      expect(await client.verify(payload, requirements)).toMatchObject({ isValid: true });
      expect(await client.settle(payload, requirements)).toMatchObject({ success: true });
      expect(s.calls.map((c) => c.reason ?? "accepted")).toEqual(["accepted", "accepted", "accepted"]);
    });
  }

  it("signs each call's token for that call only: the settle token does not pass for verify", async () => {
    const key = cdpKey("ed25519");
    const s = await standIn({ kind: "cdp", keyId: "key-2", publicJwk: key.publicJwk, alg: key.alg });
    const headers = await facilitatorAuthHeaders(s.url, { kind: "cdp", keyId: "key-2", keySecret: key.secret })();
    const verify = await fetch(`${s.url}/verify`, {
      method: "POST",
      headers: { ...headers.settle, "Content-Type": "application/json" },
      body: JSON.stringify({ paymentPayload: payload, paymentRequirements: requirements }),
    });
    expect(verify.status).toBe(401);
    expect(s.calls[0]?.reason).toMatch(/the token is for \["POST 127\.0\.0\.1:\d+\/platform\/v2\/x402\/settle"\]/);
    // Another key's token is refused too.
    const other = cdpKey("ed25519");
    const forged = await facilitatorAuthHeaders(s.url, { kind: "cdp", keyId: "key-2", keySecret: other.secret })();
    expect((await fetch(`${s.url}/supported`, { headers: forged.supported })).status).toBe(401);
  });

  it("refuses a CDP secret that is no key", async () => {
    await expect(
      facilitatorAuthHeaders("https://api.cdp.coinbase.com/platform/v2/x402", { kind: "cdp", keyId: "k", keySecret: "not-a-key" })(),
    ).rejects.toThrow(/not a CDP API key secret/);
  });
});

describe("the in-process Solana fee payer", () => {
  const COMPUTE_BUDGET = "ComputeBudget111111111111111111111111111111" as Address;
  const MEMO = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr" as Address;
  // No node behind it: every refusal below comes before the facilitator would simulate the transaction.
  const network: SolanaNetwork = {
    kind: "solana",
    key: "solana",
    network: "solana:localtest",
    name: "Solana (test)",
    rpcUrl: "http://127.0.0.1:9",
    payTo: "11111111111111111111111111111111",
    usdc: { mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", decimals: 6 },
  };

  /** A transaction the shop's fee payer would pay for: the compute budget asked, then a memo that `signers` sign. */
  async function transaction(feePayer: Address, budget: { units: number; microLamports: bigint }, signers: KeyPairSigner[]) {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: "11111111111111111111111111111111" as Blockhash, lastValidBlockHeight: 1n }, m),
      (m) =>
        appendTransactionMessageInstructions(
          [
            { programAddress: COMPUTE_BUDGET, data: computeUnitLimit(budget.units) },
            { programAddress: COMPUTE_BUDGET, data: computeUnitPrice(budget.microLamports) },
            {
              programAddress: MEMO,
              accounts: signers.map((signer) => ({ address: signer.address, role: AccountRole.READONLY_SIGNER, signer })),
              data: new Uint8Array([1]),
            },
          ],
          m,
        ),
    );
    return getBase64EncodedWireTransaction(await partiallySignTransactionMessageWithSigners(message));
  }

  it("refuses a transaction asking more compute units, a higher price per unit or more signatures than an ordinary payment", async () => {
    const feePayer = await generateKeyPairSigner();
    const facilitator = inProcessFacilitator([network], { evm: [], solana: feePayer }, {} as SenderSync);
    const requirements = {
      scheme: "exact",
      network: network.network,
      amount: "2000",
      asset: network.usdc.mint,
      payTo: network.payTo,
      maxTimeoutSeconds: 300,
      extra: { feePayer: feePayer.address },
    } as PaymentRequirements;
    const verdict = async (budget: { units: number; microLamports: bigint }, signers: KeyPairSigner[]) => {
      const payload = {
        x402Version: 2,
        accepted: requirements,
        payload: { transaction: await transaction(feePayer.address, budget, signers) },
      } as PaymentPayload;
      return (await facilitator.verify(payload, requirements)).invalidReason;
    };
    const payer = await generateKeyPairSigner();
    const bounds = { units: SOLANA_MAX_COMPUTE_UNITS, microLamports: BigInt(SOLANA_MAX_PRIORITY_FEE_MICROLAMPORTS) };
    // At the bounds the budget passes: this one is refused further on, as it transfers nothing.
    expect(await verdict(bounds, [payer])).toBe("invalid_exact_svm_payload_no_transfer_instruction");
    expect(await verdict({ ...bounds, units: bounds.units + 1 }, [payer])).toBe(
      "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction_too_high",
    );
    expect(await verdict({ ...bounds, microLamports: bounds.microLamports + 1n }, [payer])).toBe(
      "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high",
    );
    const signers = await Promise.all(Array.from({ length: SOLANA_MAX_REQUIRED_SIGNATURES }, () => generateKeyPairSigner()));
    expect(await verdict(bounds, signers)).toBe("invalid_exact_svm_payload_excessive_signers");
    // Within the bounds, the priority fee stays below one signature's 5,000 lamports.
    expect((BigInt(SOLANA_MAX_COMPUTE_UNITS) * BigInt(SOLANA_MAX_PRIORITY_FEE_MICROLAMPORTS)) / 1_000_000n).toBeLessThan(5_000n);
  });
});
