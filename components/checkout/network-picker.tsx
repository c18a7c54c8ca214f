"use client";

import type { PayNetwork } from "./usdc-balance";

/** The network to pay on, as a row of radio tiles (one per network the connected wallet can pay on). */
export function NetworkPicker({ networks, chosen, onChoose }: { networks: PayNetwork[]; chosen: PayNetwork | undefined; onChoose: (network: string) => void }) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold text-slate-900">Network</legend>
      <div className="flex flex-wrap gap-2">
        {networks.map((n) => (
          <label
            key={n.network}
            className="flex cursor-pointer items-center gap-2 rounded-xl border border-slate-300 px-3 py-2 text-sm text-slate-900 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
          >
            <input type="radio" name="network" value={n.network} checked={chosen?.network === n.network} onChange={() => onChoose(n.network)} />
            {n.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The outcome of the last action: a notice read politely, or an error read at once. Empty, they take no room. */
export function ActionMessages({ notice, error }: { notice: string | null; error: string | null }) {
  return (
    <>
      <p role="status" className="text-sm font-medium text-emerald-800 empty:sr-only">
        {notice}
      </p>
      <p role="alert" className="text-sm font-medium text-red-700 empty:sr-only">
        {error}
      </p>
    </>
  );
}
