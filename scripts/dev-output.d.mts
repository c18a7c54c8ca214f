// Types of scripts/dev-output.mjs (plain JavaScript: scripts/dev.mjs runs without a compiler).
/** The port in next dev's "- Local: http://localhost:3001" line, once it has printed it (escape codes aside). */
export function announcedPort(output: string): number | undefined;
