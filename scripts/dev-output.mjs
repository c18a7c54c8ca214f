// What `npm run dev` (scripts/dev.mjs) reads in next dev's output.

/** The port in next dev's "- Local: http://localhost:3001" line, once it has printed it (escape codes aside). */
export function announcedPort(output) {
  const match = /Local:\s+https?:\/\/(?:\[[^\]]*\]|[^\s:/]+):(\d+)/.exec(output.replace(/\x1b\[[0-9;]*m/g, ""));
  return match ? Number(match[1]) : undefined;
}
