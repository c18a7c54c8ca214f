/** The admin token the e2e shops start with (see playwright.config.ts), so tests can create merchants. */
export const E2E_ADMIN_TOKEN = "adm_e2e_admin_token_0123456789abcdefghij";

/** The CRON_SECRET of the e2e shops (GET /api/cron/tick). */
export const E2E_CRON_SECRET = "e2e-cron-secret-0123456789abcdef";
