"use client";

import { radioTileClass } from "@/components/ui/radio-tile";
import type { PayNetwork } from "./usdc-balance";

/** The network to pay on, as a row of radio tiles (one per network the connected wallet can pay on). */
export function NetworkPicker({ networks, chosen, onChoose }: { networks: PayNetwork[]; chosen: PayNetwork | undefined; onChoose: (network: string) => void }) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold text-slate-900">Network</legend>
      <div className="flex flex-wrap gap-2">
        {networks.map((n) => (
          <label key={n.network} className={`flex items-center gap-2 px-3 py-2 text-slate-900 ${radioTileClass}`}>
            <input type="radio" name="network" value={n.network} checked={chosen?.network === n.network} onChange={() => onChoose(n.network)} />
            {n.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
