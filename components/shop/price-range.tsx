import { formatUsd } from "@/lib/catalog";

export function PriceRange({ from, to }: { from: bigint | null; to: bigint | null }) {
  if (from === null || to === null) return <span className="text-slate-500">Price on request</span>;
  if (from === to) return <span>{formatUsd(from)}</span>;
  return (
    <span>
      {formatUsd(from)} – {formatUsd(to)}
    </span>
  );
}
