import { expect } from "@playwright/test";
import { answerProblems } from "../../test/openapi";
import { x402Response } from "../../lib/openapi/x402";

/**
 * Fails the test unless an answer of the /x402 API is the one its OpenAPI document (lib/openapi/x402.ts) describes
 * for `method pathTemplate` with `status`: the body, and the documented headers when `headers` are given.
 */
export function expectDocumented(method: string, pathTemplate: string, status: number, body: unknown, headers?: Headers): void {
  expect(answerProblems(x402Response(method, pathTemplate, status), body, headers), `${method} ${pathTemplate} ${status} as documented`).toEqual([]);
}

/**
 * `fetch` that checks every answer of the /x402 API against the document (expectDocumented) before the test reads it.
 * The x402 specs import it as `fetch`, and the devnet buyers pay through it, so every call they make is checked.
 */
export const documentedFetch: typeof fetch = async (input, init) => {
  const req = new Request(input, init);
  const res = await fetch(req);
  const { pathname } = new URL(req.url);
  if (pathname.startsWith("/x402/") && req.method !== "OPTIONS") {
    expectDocumented(req.method, pathname, res.status, await res.clone().json(), res.headers);
  }
  return res;
};
