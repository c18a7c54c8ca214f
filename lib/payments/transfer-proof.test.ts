import { encodeAbiParameters, encodeEventTopics, pad, toHex, type Address, type Hex, type Log } from "viem";
import { describe, expect, it } from "vitest";
import { carriesTransfer, EIP3009_EVENTS, findAuthorizationEvent, LOG_RANGE_BLOCKS } from "./transfer-proof";

const token = "0x4020000000000000000000000000000000005dc0" as Address;
const payer = "0x1111111111111111111111111111111111111111" as Address;
const shop = "0x2222222222222222222222222222222222222222" as Address;
const nonce = `0x${"ab".repeat(32)}` as Hex;
const other = `0x${"cd".repeat(32)}` as Hex;
const expected = { token, from: payer, nonce, to: shop, value: 10_000_000n };

let index = 0;
function log(address: Address, topics: readonly unknown[], data: Hex = "0x"): Log {
  return {
    address,
    topics: topics as [Hex, ...Hex[]],
    data,
    logIndex: index++,
    blockNumber: 1n,
    blockHash: `0x${"00".repeat(32)}`,
    transactionHash: `0x${"11".repeat(32)}`,
    transactionIndex: 0,
    removed: false,
  };
}
const used = (n: Hex, at = token) => log(at, encodeEventTopics({ abi: EIP3009_EVENTS, eventName: "AuthorizationUsed", args: { authorizer: payer, nonce: n } }));
const transfer = (to: Address, value: bigint, at = token) =>
  log(at, encodeEventTopics({ abi: EIP3009_EVENTS, eventName: "Transfer", args: { from: payer, to } }), encodeAbiParameters([{ type: "uint256" }], [value]));

describe("carriesTransfer", () => {
  it("takes the authorization's use followed by its transfer of the amount to the shop", () => {
    index = 0;
    expect(carriesTransfer([used(nonce), transfer(shop, 10_000_000n)], expected)).toBe(true);
  });

  it("refuses a spent nonce without the transfer: to the payer itself, of value 0, or another amount", () => {
    index = 0;
    expect(carriesTransfer([used(nonce), transfer(payer, 0n)], expected)).toBe(false);
    expect(carriesTransfer([used(nonce), transfer(shop, 9_999_999n)], expected)).toBe(false);
    expect(carriesTransfer([used(nonce)], expected)).toBe(false);
  });

  it("does not pair this nonce with another authorization's transfer to the shop in the same transaction", () => {
    index = 0;
    // The payer spends this nonce on itself, and another authorization (another nonce) pays the shop.
    expect(carriesTransfer([used(nonce), transfer(payer, 0n), used(other), transfer(shop, 10_000_000n)], expected)).toBe(false);
  });

  it("reads only the token's own logs", () => {
    index = 0;
    const fake = "0x3333333333333333333333333333333333333333" as Address;
    expect(carriesTransfer([used(nonce, fake), transfer(shop, 10_000_000n, fake)], expected)).toBe(false);
  });
});

describe("findAuthorizationEvent", () => {
  const event = {
    topics: [encodeEventTopics({ abi: EIP3009_EVENTS, eventName: "AuthorizationUsed", args: { authorizer: payer, nonce } })[0]!, pad(payer), nonce],
  };
  /** A node whose logs hold the event at `at`, refusing ranges wider than `maxRange`, recording the ranges asked. */
  function node(at: bigint, maxRange: bigint) {
    const asked: [bigint, bigint][] = [];
    return {
      asked,
      request: async ({ params }: { method: string; params: [{ fromBlock: Hex; toBlock: Hex }] }) => {
        const [from, to] = [BigInt(params[0].fromBlock), BigInt(params[0].toBlock)];
        asked.push([from, to]);
        if (to - from + 1n > maxRange) throw new Error(`query exceeds max block range ${maxRange}`);
        return from <= at && at <= to ? [{ ...event, transactionHash: `0x${"22".repeat(32)}`, blockNumber: toHex(at) }] : [];
      },
    };
  }

  it("finds an event more than 10,000 blocks after the block it looks from, in ranges of 2,000", async () => {
    const n = node(10_050n, 10_000n);
    const found = await findAuthorizationEvent(n as never, { token, from: payer, nonce }, 0n, 12_000n);
    expect(found).toMatchObject({ kind: "used", blockNumber: 10_050n });
    expect(n.asked.every(([a, b]) => b - a + 1n <= LOG_RANGE_BLOCKS)).toBe(true);
    expect(n.asked[0]).toEqual([0n, LOG_RANGE_BLOCKS - 1n]);
  });

  it("halves the range while a provider refuses it as too wide", async () => {
    const n = node(1_200n, 500n);
    expect(await findAuthorizationEvent(n as never, { token, from: payer, nonce }, 0n, 3_000n)).toMatchObject({ blockNumber: 1_200n });
    expect(n.asked.some(([a, b]) => b - a + 1n === 500n)).toBe(true);
  });

  it("answers null when no block holds it, and throws when the node fails otherwise", async () => {
    expect(await findAuthorizationEvent(node(99_999n, 10_000n) as never, { token, from: payer, nonce }, 0n, 4_000n)).toBeNull();
    const failing = { request: async () => Promise.reject(new Error("connection refused")) };
    await expect(findAuthorizationEvent(failing as never, { token, from: payer, nonce }, 0n, 10n)).rejects.toThrow(/refused/);
  });
});
