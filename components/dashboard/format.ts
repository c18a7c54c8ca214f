/** Dates and money as the dashboard shows them: rendered on the server, so in UTC and spelled out, never the server's locale. */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** "3 Mar 2026, 14:05 UTC". */
export function formatDateTime(d: Date): string {
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** "3 Mar 2026, 14:05:09 UTC": for events seconds apart, such as a webhook's attempts. */
export function formatDateTimeSeconds(d: Date): string {
  return `${formatDateTime(d).slice(0, -4)}:${pad(d.getUTCSeconds())} UTC`;
}

/** "$1,234.50" from integer US cents. */
export function formatUsd(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const dollars = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}$${dollars}.${pad(Number(abs % 100n))}`;
}
