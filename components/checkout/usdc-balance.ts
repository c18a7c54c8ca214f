"use client";

import { useQuery } from "@tanstack/react-query";
import type { Address } from "viem";
import type { WalletSetup } from "@/lib/payments/wallet-setup";

/** A network the invoice can be paid on, with what reading the wallet's USDC there needs. */
export type PayNetwork = { network: string; name: string; family: "eip155" | "solana"; asset: string; rpcUrl: string };

/** Every network of this deployment, as payment needs it. */
export function payNetworks(setup: WalletSetup): PayNetwork[] {
  return [
    ...setup.evm.map((n) => ({ network: n.network, name: n.name, family: "eip155" as const, asset: n.usdc, rpcUrl: n.rpcUrl })),
    { network: setup.solana.network, name: setup.solana.name, family: "solana" as const, asset: setup.solana.mint, rpcUrl: setup.solana.rpcUrl },
  ];
}

/** The networks where an invoice is paid by a transfer to its own address only (no x402): Ethereum. */
export function addressOnlyNetworks(setup: WalletSetup): PayNetwork[] {
  return (setup.addressOnlyEvm ?? []).map((n) => ({ network: n.network, name: n.name, family: "eip155" as const, asset: n.usdc, rpcUrl: n.rpcUrl }));
}

/** USDC (atomic units) an owner holds on a network: the ERC-20 balance, or the SPL balance of its associated account. */
async function readUsdcBalance(net: PayNetwork, owner: string): Promise<bigint> {
  // Each chain family's client is loaded when a balance on it is first read.
  if (net.family === "eip155") {
    const { createPublicClient, erc20Abi, http } = await import("viem");
    const client = createPublicClient({ transport: http(net.rpcUrl) });
    return client.readContract({ address: net.asset as Address, abi: erc20Abi, functionName: "balanceOf", args: [owner as Address] });
  }
  const [{ fetchMaybeToken, findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS }, { address, createSolanaRpc }] = await Promise.all([
    import("@solana-program/token"),
    import("@solana/kit"),
  ]);
  const [ata] = await findAssociatedTokenPda({ owner: address(owner), mint: address(net.asset), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const account = await fetchMaybeToken(createSolanaRpc(net.rpcUrl), ata);
  return account.exists ? account.data.amount : 0n;
}

/** Query keys of USDC balances: all of them (to refresh after a payment or a faucet), or one wallet's on one network. */
export const BALANCES = ["usdc-balance"] as const;
const balanceKey = (network: string | undefined, owner: string) => [...BALANCES, network, owner] as const;

/**
 * The wallet's USDC on the chosen network, so the shopper learns before signing that it is not enough. Undefined
 * while unknown (loading, or the chain could not be read: then paying is still allowed and the facilitator decides).
 */
export function useUsdcBalance(net: PayNetwork | undefined, owner: string): bigint | undefined {
  const query = useQuery({
    queryKey: balanceKey(net?.network, owner),
    queryFn: () => readUsdcBalance(net!, owner),
    enabled: net !== undefined,
    retry: 1,
    staleTime: 5_000,
  });
  return query.data;
}
