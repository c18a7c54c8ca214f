/** Where the e2e run puts its two shops that share one PostgreSQL database and one devnet (see playwright.config.ts). */
const PORT = Number(process.env.E2E_PORT ?? 3107);
export const SERVER_A = `http://127.0.0.1:${PORT + 3}`;
export const SERVER_B = `http://127.0.0.1:${PORT + 4}`;
export const SHARED_DEVNET_PORT = PORT + 5;
/** Both shops sign session tokens with it, as several servers of one deployment do. */
export const SHARED_SESSION_SECRET = "e2e-two-servers-session-secret-0123456789abcdef";
