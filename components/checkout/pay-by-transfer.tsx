"use client";

import { useId } from "react";
import type { WalletSetup } from "@/lib/payments/wallet-setup";

/** A coin on a network that a transfer to the invoice's own address pays, as the API names it. */
export type TransferMethod = { method: string; label: string };

/**
 * The ways to pay by a transfer on this shop's EVM networks: USDC on each (on Ethereum `usdc_erc20`), and ether where
 * it is the network's coin (not on Polygon).
 */
export function transferMethods(setup: Pick<WalletSetup, "evm" | "addressOnlyEvm" | "solana">): TransferMethod[] {
  const networks = [...setup.evm, ...(setup.addressOnlyEvm ?? [])];
  return [
    ...networks.flatMap((n) => {
      const usdc = { method: n.key === "ethereum" ? "usdc_erc20" : `usdc_${n.key}`, label: `USDC on ${n.name}` };
      const ether = n.key === "ethereum" ? "ethereum" : n.key === "base" || n.key === "arbitrum" ? `eth_${n.key}` : undefined;
      return ether ? [usdc, { method: ether, label: `ETH on ${n.name}` }] : [usdc];
    }),
    { method: "usdc_solana", label: `USDC on ${setup.solana.name} (Solana Pay)` },
  ];
}

/** Whether a method is paid on Solana (its refunds go to a Solana address). */
export const isSolanaMethod = (method: string) => method === "usdc_solana";

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** Why a refund address typed in is not one (of the method's chain), or null when it is (or is left empty). */
export function refundAddressProblem(value: string, solana = false): string | null {
  const v = value.trim();
  if (v === "" || (solana ? SOLANA_ADDRESS : EVM_ADDRESS).test(v)) return null;
  return solana ? "This is not a Solana address: 32 to 44 base58 characters." : "This is not an EVM address: 0x followed by 40 hexadecimal digits.";
}

/**
 * The checkout's choice of how to pay: with the connected wallet (one x402 signature, USDC), or by a transfer from
 * any wallet or exchange to the invoice's own address, in a coin on a network chosen here, with the address that
 * refunds go to (never the one the transfer comes from: an exchange's would swallow it).
 */
export function PayByTransferChoice({
  methods,
  byTransfer,
  onByTransfer,
  method,
  onMethod,
  refundAddress,
  onRefundAddress,
  refundError,
}: {
  methods: TransferMethod[];
  byTransfer: boolean;
  onByTransfer: (v: boolean) => void;
  method: string;
  onMethod: (v: string) => void;
  refundAddress: string;
  onRefundAddress: (v: string) => void;
  refundError: string | null;
}) {
  const id = useId();
  if (methods.length === 0) return null;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-semibold text-slate-900">How you pay</legend>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="radio" name={`${id}-how`} checked={!byTransfer} onChange={() => onByTransfer(false)} className="mt-1 size-4 accent-brand-600" />
        <span>With the connected wallet, in USDC: one signature.</span>
      </label>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="radio" name={`${id}-how`} checked={byTransfer} onChange={() => onByTransfer(true)} className="mt-1 size-4 accent-brand-600" />
        <span>By a transfer from any wallet or exchange, in USDC or ether, to an address of the invoice&apos;s own.</span>
      </label>
      {byTransfer && (
        <div className="flex flex-col gap-3 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-method`} className="text-sm font-semibold text-slate-900">
              Coin and network
            </label>
            <select
              id={`${id}-method`}
              value={method}
              onChange={(e) => onMethod(e.target.value)}
              className="h-11 w-full min-w-0 rounded-xl border border-slate-300 bg-white px-3 text-slate-900 focus:ring-2 focus:ring-brand-600 focus:outline-none"
            >
              {methods.map((m) => (
                <option key={m.method} value={m.method}>
                  {m.label}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-refund`} className="text-sm font-semibold text-slate-900">
              Refund address <span className="font-normal text-slate-600">({isSolanaMethod(method) ? "a Solana" : "an EVM"} address of yours)</span>
            </label>
            <input
              id={`${id}-refund`}
              name="refund_address"
              value={refundAddress}
              onChange={(e) => onRefundAddress(e.target.value)}
              spellCheck={false}
              autoComplete="off"
              placeholder={isSolanaMethod(method) ? "" : "0x…"}
              aria-invalid={refundError !== null}
              aria-describedby={`${id}-refund-hint${refundError ? ` ${id}-refund-error` : ""}`}
              className="h-11 w-full min-w-0 rounded-xl border border-slate-300 bg-white px-3 font-mono text-sm text-slate-900 focus:ring-2 focus:ring-brand-600 focus:outline-none aria-[invalid=true]:border-red-600"
            />
            <p id={`${id}-refund-hint`} className="text-sm text-slate-700">
              If anything is paid back (an item that cannot be delivered, a transfer too large or too late), it goes here, never to the address you send from:
              an exchange could lose it. Left empty, it goes to the wallet you sign in with when that wallet is of this chain, else it waits for the shop&apos;s
              staff.
            </p>
            {refundError && (
              <p id={`${id}-refund-error`} role="alert" className="text-sm font-medium text-red-700">
                {refundError}
              </p>
            )}
          </div>
        </div>
      )}
    </fieldset>
  );
}
