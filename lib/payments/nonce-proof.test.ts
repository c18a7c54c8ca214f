import type { Address, Hash } from "viem";
import { describe, expect, it } from "vitest";
import { nonceUse } from "./nonce-proof";

const SENDER = "0x00000000000000000000000000000000000000aa" as Address;
const hashOf = (nonce: number) => `0x${nonce.toString(16).padStart(64, "0")}` as Hash;

/** A chain whose sender mined nonce i in block `minedAt[i]`; it counts the questions asked of it. */
function chainWith(minedAt: number[], opts: { blockWithout?: number } = {}) {
  const asked = { counts: 0, blocks: [] as bigint[] };
  const client = {
    getTransactionCount: async ({ blockNumber }: { blockNumber: bigint }) => {
      asked.counts++;
      return minedAt.filter((b) => BigInt(b) <= blockNumber).length;
    },
    getBlock: async ({ blockNumber }: { blockNumber: bigint }) => {
      asked.blocks.push(blockNumber);
      const transactions = minedAt.flatMap((b, nonce) =>
        BigInt(b) === blockNumber && Number(blockNumber) !== opts.blockWithout ? [{ from: SENDER, nonce, hash: hashOf(nonce) }] : [],
      );
      return { transactions };
    },
  };
  return { client: client as unknown as Parameters<typeof nonceUse>[0], asked };
}

describe("nonceUse", () => {
  it("finds the block and the transaction that used a nonce, asking a few counts for a recent one", async () => {
    const { client, asked } = chainWith([10, 10, 995]);
    expect(await nonceUse(client, SENDER, 2, 1_000n)).toEqual({ used: true, by: hashOf(2), block: 995n });
    expect(asked.blocks).toEqual([995n]);
    expect(asked.counts).toBeLessThanOrEqual(8);
  });

  it("finds one used long ago, and one in the first block", async () => {
    expect(await nonceUse(chainWith([10, 10, 995]).client, SENDER, 1, 1_000n)).toEqual({ used: true, by: hashOf(1), block: 10n });
    expect(await nonceUse(chainWith([0]).client, SENDER, 0, 7n)).toEqual({ used: true, by: hashOf(0), block: 0n });
  });

  it("says not used when the block at the depth has not used it yet (whatever later blocks hold)", async () => {
    expect(await nonceUse(chainWith([10, 1_005]).client, SENDER, 1, 1_000n)).toEqual({ used: false });
    expect(await nonceUse(chainWith([10]).client, SENDER, 0, -1n)).toEqual({ used: false });
  });

  it("is no answer when the block does not hold what its state counts (an inconsistent node)", async () => {
    await expect(nonceUse(chainWith([10, 500], { blockWithout: 500 }).client, SENDER, 1, 1_000n)).rejects.toThrow(/does not hold/);
  });
});
