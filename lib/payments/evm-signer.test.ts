import { describe, expect, it } from "vitest";
import { replacementFees } from "./evm-signer";

const gwei = (x: number) => BigInt(Math.round(x * 1e9));

describe("replacementFees", () => {
  it("takes the chain's current fees when they are dearer than the last by the nodes' margin", () => {
    expect(replacementFees({ maxFeePerGas: gwei(2), maxPriorityFeePerGas: gwei(1) }, { maxFeePerGas: gwei(600), maxPriorityFeePerGas: gwei(2) })).toEqual({
      maxFeePerGas: gwei(600),
      maxPriorityFeePerGas: gwei(2),
    });
  });

  it("asks at least 12.5 % more than the last on both fees, so that a node takes the replacement", () => {
    const last = { maxFeePerGas: gwei(10), maxPriorityFeePerGas: gwei(1) };
    const next = replacementFees(last, { maxFeePerGas: gwei(9), maxPriorityFeePerGas: gwei(1) });
    expect(next.maxFeePerGas * 1000n >= last.maxFeePerGas * 1125n).toBe(true);
    expect(next.maxPriorityFeePerGas * 1000n >= last.maxPriorityFeePerGas * 1125n).toBe(true);
    expect(next.maxFeePerGas < gwei(11.3)).toBe(true);
  });

  it("never caps the fee below the tip", () => {
    const next = replacementFees({ maxFeePerGas: gwei(1), maxPriorityFeePerGas: gwei(1) }, { maxFeePerGas: gwei(1), maxPriorityFeePerGas: gwei(5) });
    expect(next.maxFeePerGas >= next.maxPriorityFeePerGas).toBe(true);
  });
});
