import type { DailySales } from "@/lib/dashboard/stats";
import { formatUsd } from "./format";

const WIDTH = 600;
const HEIGHT = 160;
const GAP = 4;

/**
 * Daily sales as bars, drawn on the server as SVG (no chart library, no script). The figures themselves are in a
 * table for screen readers; each bar also has a tooltip title.
 */
export function SalesChart({ days }: { days: DailySales[] }) {
  const max = days.reduce((m, d) => (d.cents > m ? d.cents : m), 0n);
  const bar = (WIDTH - GAP * (days.length - 1)) / days.length;
  const first = days[0]?.day;
  const last = days.at(-1)?.day;
  return (
    <figure className="relative flex flex-col gap-2">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-40 w-full" preserveAspectRatio="none" aria-hidden="true">
        <line x1="0" x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="stroke-slate-300" />
        {days.map((d, i) => {
          const h = max === 0n ? 0 : Math.max(d.cents > 0n ? 2 : 0, Number((d.cents * BigInt(HEIGHT - 8)) / max));
          return (
            <rect key={d.day} x={i * (bar + GAP)} y={HEIGHT - 1 - h} width={bar} height={h} rx="2" className="fill-brand-500">
              <title>{`${d.day}: ${formatUsd(d.cents)}, ${d.orders} order${d.orders === 1 ? "" : "s"}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="flex flex-wrap justify-between gap-x-3 text-xs text-slate-600">
        <span>{first}</span>
        <span>Sales per day (UTC), highest {formatUsd(max)}</span>
        <span>{last}</span>
      </figcaption>
      <table className="sr-only">
        <caption>Sales per day, last 30 days</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Sales</th>
            <th scope="col">Orders</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              <td>{formatUsd(d.cents)}</td>
              <td>{d.orders}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
