import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SolanaNetwork } from "@/lib/platform/networks";
import type { SenderSync } from "@/lib/payments/evm-signer";
import { chainPayout } from "./chain-payout";

/**
 * A Solana transfer's status against a JSON-RPC node whose answers the test sets: its blockhash expired (height past
 * the transfer's expiry), its signature unknown. Dead only when the node that answered for the signature had seen the
 * slot at which the height was read; a node behind it (load-balanced) may not know a transfer that landed since.
 */
describe("chainPayout status on Solana", () => {
  let server: http.Server;
  let node = { height: 0, slot: 0, statusSlot: 0 };
  /** The signature's status the node answers (null: unknown). */
  let signature: { err: unknown; confirmationStatus: string } | null = null;
  const asked: string[] = [];
  const epochCommitments: unknown[] = [];
  const EXPIRY = 500;
  let network: SolanaNetwork;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const call = JSON.parse(body) as { id: number; method: string; params?: [{ commitment?: string }?] };
        asked.push(call.method);
        if (call.method === "getEpochInfo") epochCommitments.push(call.params?.[0]?.commitment);
        const result =
          call.method === "getEpochInfo"
            ? { absoluteSlot: node.slot, blockHeight: node.height, epoch: 0, slotIndex: node.slot, slotsInEpoch: 432_000, transactionCount: 0 }
            : { context: { slot: node.statusSlot }, value: [signature && { slot: 1, confirmations: null, status: { Ok: null }, ...signature }] };
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    network = {
      key: "solana",
      kind: "solana",
      network: "solana:test",
      name: "Solana (test)",
      rpcUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      payTo: "11111111111111111111111111111111",
      usdc: { mint: "11111111111111111111111111111111", decimals: 6 },
    };
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  const status = () =>
    chainPayout({ networks: [network], sync: {} as SenderSync }).status(network.network, [{ transaction: "5".repeat(88), raw: "", expiry: String(EXPIRY) }]);

  it("asks the finalized height and its slot first, then the signature", async () => {
    node = { height: EXPIRY + 1, slot: 1_000, statusSlot: 1_000 };
    signature = null;
    asked.length = 0;
    epochCommitments.length = 0;
    expect(await status()).toEqual({ status: "dead" });
    expect(asked).toEqual(["getEpochInfo", "getSignatureStatuses"]);
    // Expired as seen at finalized, a height no fork takes back (@solana/kit leaves out a commitment that is the node's
    // default, finalized).
    expect(epochCommitments.map((c) => c ?? "finalized")).toEqual(["finalized"]);
  });

  it("takes a failure as final only once confirmed: a failed transaction only processed may be dropped with its fork", async () => {
    node = { height: EXPIRY, slot: 1_000, statusSlot: 1_000 };
    signature = { err: { InstructionError: [0, "Custom"] }, confirmationStatus: "processed" };
    expect(await status()).toEqual({ status: "pending" });
    signature = { err: { InstructionError: [0, "Custom"] }, confirmationStatus: "confirmed" };
    expect(await status()).toMatchObject({ status: "failed" });
    signature = { err: null, confirmationStatus: "processed" };
    expect(await status()).toEqual({ status: "pending" });
    signature = { err: null, confirmationStatus: "confirmed" };
    expect(await status()).toMatchObject({ status: "landed" });
    signature = null;
  });

  it("is pending while the blockhash may still be used", async () => {
    node = { height: EXPIRY, slot: 1_000, statusSlot: 1_000 };
    expect(await status()).toEqual({ status: "pending" });
  });

  it("is pending when the signature was looked up on a node behind the slot of the height", async () => {
    node = { height: EXPIRY + 10, slot: 1_000, statusSlot: 990 };
    expect(await status()).toEqual({ status: "pending" });
  });
});
