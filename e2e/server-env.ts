/** The admin token the e2e shops start with (see playwright.config.ts), so tests can create merchants. */
export const E2E_ADMIN_TOKEN = "adm_e2e_admin_token_0123456789abcdefghij";
