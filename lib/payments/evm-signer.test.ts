import { CallExecutionError, ContractFunctionExecutionError, HttpRequestError, RpcRequestError, TimeoutError } from "viem";
import { describe, expect, it } from "vitest";
import { errorText, isUnanswered, replacementFees } from "./evm-signer";

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

describe("isUnanswered", () => {
  const url = "http://127.0.0.1:8545";
  const rpc = (code: number, message: string) => new RpcRequestError({ body: { method: "eth_call" }, error: { code, message }, url });
  // A readContract failure as viem gives it: the contract call, its eth_call, and the transport's error under them.
  const asRead = (cause: Error) =>
    new ContractFunctionExecutionError(new CallExecutionError(cause as never, {}), { abi: [], functionName: "transferWithAuthorization" });

  it("tells a node that gave no verdict (no answer, a timeout, its own trouble) from one that refused the call", () => {
    expect(isUnanswered(asRead(new HttpRequestError({ url, status: 503, details: "service unavailable" })))).toBe(true);
    expect(isUnanswered(new HttpRequestError({ url, details: "fetch failed" }))).toBe(true);
    expect(isUnanswered(asRead(new TimeoutError({ body: {}, url })))).toBe(true);
    expect(isUnanswered(asRead(rpc(-32603, "internal error")))).toBe(true);
    expect(isUnanswered(rpc(429, "too many requests"))).toBe(true);
    // A verdict: the call reverted, or the request was wrong.
    expect(isUnanswered(asRead(rpc(3, "execution reverted: FiatTokenV2: invalid signature")))).toBe(false);
    expect(isUnanswered(rpc(-32602, "invalid params"))).toBe(false);
    expect(isUnanswered(new Error("something else"))).toBe(false);
    expect(isUnanswered("not an error")).toBe(false);
  });
});

describe("errorText", () => {
  it("reads a node's words through the causes that wrap them, up to six deep", () => {
    let err = new Error("nonce too low: next nonce 7, tx nonce 6");
    for (const words of ["RPC Request failed.", "Transaction creation failed.", "Execution reverted for an unknown reason.", "Settlement failed."])
      err = new Error(words, { cause: err });
    expect(errorText(err)).toContain("nonce too low");
  });
});
