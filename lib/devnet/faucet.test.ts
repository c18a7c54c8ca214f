import { describe, expect, it, vi } from "vitest";
import { DomainError } from "@/lib/platform/errors";
import { x402ErrorOf } from "@/lib/api/x402/errors";
import { faucet } from "./faucet";
import type { Devnet } from "./start-devnet";

// Refusals only: the input is checked before anything is minted, so the chains are never reached.
const mint = vi.fn();
const devnet = {
  networks: [
    { kind: "evm", network: "eip155:84530402" },
    { kind: "solana", network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1" },
  ],
  addressNetworks: [],
  mint,
  balance: vi.fn(),
} as unknown as Devnet;

async function refusal(body: unknown) {
  const err = await faucet(devnet, body).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  const res = x402ErrorOf(err as DomainError)!.toResponse();
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("the devnet faucet's refusals, as the wallet-paid API answers them", () => {
  it("names the field and says what is wrong with it", async () => {
    const evm = "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF";
    expect(await refusal({ network: "eip155:1", address: evm, amount: "5" })).toEqual({
      status: 400,
      body: { code: "UNKNOWN_NETWORK", field: "network", message: "network: must be one of eip155:84530402, solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1" },
    });
    expect(await refusal({ network: "eip155:84530402", address: "not-an-address", amount: "5" })).toMatchObject({
      status: 400,
      body: { code: "INVALID_ADDRESS", field: "address", message: "address: is not a 0x EVM address" },
    });
    expect(await refusal({ network: "eip155:84530402", address: evm, amount: "0" })).toMatchObject({
      status: 400,
      body: { code: "INVALID_AMOUNT", field: "amount" },
    });
    expect(await refusal({ network: "eip155:84530402", address: evm })).toMatchObject({
      status: 400,
      body: { code: "INVALID_PARAMETER", field: "amount" },
    });
    expect(await refusal({ network: "eip155:84530402", address: evm, amount: "11", asset: "ETH" })).toMatchObject({
      status: 400,
      body: { code: "INVALID_AMOUNT", field: "amount", message: "amount: must be more than 0 and at most 10 ether" },
    });
    expect(await refusal({ network: "eip155:84530402", address: evm, amount: "1", asset: "BTC" })).toMatchObject({
      status: 400,
      body: { code: "INVALID_PARAMETER", field: "asset" },
    });
    expect(
      await refusal({ network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", address: "11111111111111111111111111111111", amount: "1", asset: "ETH" }),
    ).toMatchObject({
      status: 400,
      body: { field: "asset" },
    });
    expect(mint).not.toHaveBeenCalled();
  });
});
