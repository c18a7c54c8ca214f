import type { Payments } from "./payments";

/**
 * Makes a payment setup the process's (what `getPayments()` returns), so that route handlers can be called in tests over
 * networks of the test's own (built with `paymentsWith`). Returns a function that puts the previous one back. For tests.
 */
export function useAsProcessPayments(payments: Payments): () => void {
  const g = globalThis as typeof globalThis & { __storefrontPayments?: Promise<Payments> };
  const previous = g.__storefrontPayments;
  g.__storefrontPayments = Promise.resolve(payments);
  return () => {
    g.__storefrontPayments = previous;
  };
}
