// The merchant dashboard: sessions, sign-in, API keys, the demo merchant, its read models. What other features import from it.
export { DASHBOARD_COOKIE, DASHBOARD_PATH, dashboardCookieOptions, type CookieOptions } from "./cookie";
export {
  createKey,
  createKeyForm,
  keyStatus,
  listKeys,
  MAX_ACTIVE_KEYS,
  revokeKey,
  revokeKeyForm,
  type CreateKeyOutcome,
  type KeyRow,
  type KeyStatus,
  type RevokeKeyOutcome,
} from "./keys";
export { resolveDashboardSession, type SignedIn } from "./session";
export { DASHBOARD_SESSION_TTL_SECONDS, dashboardKeyFrom, issueDashboardSession, verifyDashboardSession, type DashboardSession } from "./session-token";
export { describeWait, INVALID_CREDENTIALS, signIn, signInForm, type SignInOutcome } from "./sign-in";
