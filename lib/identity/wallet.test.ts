import { describe, expect, it } from "vitest";
import { parseWalletId, sameWallet, walletId, walletOwnerKey } from "./wallet";

const CHECKSUMMED = "0xeaA9349c8fD27f2aa8125737C0D1a57455B5fBb8";
const SOL_ADDRESS = "7yAWzieVkFFBZVeGqf7Gwb9vuSacRjRBvPhSrWz3iYaW";
const SOLANA = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";

describe("wallet ids", () => {
  it("writes CAIP-10 ids, EVM addresses checksummed", () => {
    expect(walletId({ chainId: "eip155:8453", address: CHECKSUMMED })).toBe(`eip155:8453:${CHECKSUMMED}`);
    expect(walletId({ chainId: "eip155:8453", address: CHECKSUMMED.toLowerCase() })).toBe(`eip155:8453:${CHECKSUMMED}`);
    expect(walletId({ chainId: SOLANA, address: SOL_ADDRESS })).toBe(`${SOLANA}:${SOL_ADDRESS}`);
  });

  it("parses what it writes, and normalizes lowercase EVM addresses", () => {
    expect(parseWalletId(`eip155:8453:${CHECKSUMMED}`)).toEqual({ chainId: "eip155:8453", address: CHECKSUMMED });
    expect(parseWalletId(`eip155:137:${CHECKSUMMED.toLowerCase()}`)).toEqual({ chainId: "eip155:137", address: CHECKSUMMED });
    expect(parseWalletId(`${SOLANA}:${SOL_ADDRESS}`)).toEqual({ chainId: SOLANA, address: SOL_ADDRESS });
  });

  it("refuses anything that is not an EVM or Solana account id", () => {
    for (const s of [
      "",
      CHECKSUMMED,
      `eip155:${CHECKSUMMED}`,
      `eip155:base:${CHECKSUMMED}`,
      `eip155:8453:0x1234`,
      `eip155:8453:${CHECKSUMMED.replace("eaA", "EAa")}`,
      `${SOLANA}:0OIl${SOL_ADDRESS.slice(4)}`,
      `${SOLANA}:${CHECKSUMMED}`,
      `cosmos:cosmoshub-4:cosmos1abc`,
      `eip155:8453:${CHECKSUMMED}:extra`,
    ]) {
      expect(parseWalletId(s), s).toBeNull();
    }
  });

  it("treats one EVM key as one wallet on every EVM chain, and Solana wallets by exact address", () => {
    const base = { chainId: "eip155:8453", address: CHECKSUMMED };
    expect(sameWallet(base, { chainId: "eip155:137", address: CHECKSUMMED.toLowerCase() })).toBe(true);
    expect(sameWallet(base, { chainId: "eip155:8453", address: "0x0000000000000000000000000000000000000001" })).toBe(false);
    const sol = { chainId: SOLANA, address: SOL_ADDRESS };
    expect(sameWallet(sol, { chainId: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", address: SOL_ADDRESS })).toBe(true);
    expect(sameWallet(sol, { chainId: SOLANA, address: SOL_ADDRESS.toLowerCase() })).toBe(false);
    expect(sameWallet(base, { chainId: SOLANA, address: CHECKSUMMED })).toBe(false);
  });

  it("files a wallet's records under one key per signer", () => {
    expect(walletOwnerKey({ chainId: "eip155:8453", address: CHECKSUMMED.toLowerCase() })).toBe(`eip155:${CHECKSUMMED}`);
    expect(walletOwnerKey({ chainId: "eip155:137", address: CHECKSUMMED })).toBe(`eip155:${CHECKSUMMED}`);
    expect(walletOwnerKey({ chainId: SOLANA, address: SOL_ADDRESS })).toBe(`solana:${SOL_ADDRESS}`);
    expect(walletOwnerKey({ chainId: "cosmos:cosmoshub-4", address: "x" })).toBeNull();
  });
});
