/** The admin token the e2e shops start with (see playwright.config.ts), so tests can create merchants. */
export const E2E_ADMIN_TOKEN = "adm_e2e_admin_token_0123456789abcdefghij";

/** The CRON_SECRET of the e2e shops (GET /api/cron/tick). */
export const E2E_CRON_SECRET = "e2e-cron-secret-0123456789abcdef";

/**
 * Mainnet mode without real money: stand-in payTo addresses and gas keys (generated for this test, holding nothing;
 * the shop never reaches a chain in the test), and no SEED_DEMO_CATALOG, as an operator starts it.
 */
export const MAINNET_STAND_IN = (port: number) => ({
  NETWORK_MODE: "mainnet",
  PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
  SESSION_SECRET: "e2e-mainnet-stand-in-session-secret-0123456789",
  PAY_TO_EVM: "0x000000000000000000000000000000000000dEaD",
  PAY_TO_SOLANA: "4dAcXFjpfQ6ScrzvEMj9hUGbjDvNSQtkDGjpyWRsc9gg",
  FACILITATOR_EVM_PRIVATE_KEY: `0x${"11".repeat(32)}`,
  FACILITATOR_SOLANA_PRIVATE_KEY: "3QWJuv3qWQKPSwVCaYnyRshGpUarLiBJzcB5FRqrYCtT51qtbkrPeH97jR1dueaXmZviMg2PTMxgsvpvLqF42e68",
});
