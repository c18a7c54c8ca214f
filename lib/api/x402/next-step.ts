/** `next_step` of an /x402 response: the absolute URL of the following call, and its body when it is a POST. */
export type NextStep = { method: "GET" | "POST"; url: string; body?: Record<string, unknown> };

export function nextStep(origin: string, method: NextStep["method"], pathAndQuery: string, body?: Record<string, unknown>): NextStep {
  return { method, url: new URL(pathAndQuery, origin).toString(), ...(body ? { body } : {}) };
}
