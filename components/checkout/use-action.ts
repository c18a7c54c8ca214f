"use client";

import { useCallback, useState } from "react";
import { forgetSessions } from "@/components/wallet/session";
import { explainError } from "./explain-error";
import { ShopApiError } from "./shop-api";

/**
 * One user action at a time (sign in, pay, …): which one is running, and the last failure explained in words.
 * `after` runs once the action ends, whether it worked or not.
 */
export function useAction<K extends string>(after?: () => unknown) {
  const [busy, setBusy] = useState<K | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (kind: K, work: () => Promise<unknown>) => {
      setBusy(kind);
      setError(null);
      try {
        await work();
      } catch (err) {
        if (err instanceof ShopApiError && err.status === 401) forgetSessions();
        setError(explainError(err));
      } finally {
        setBusy(null);
        await after?.();
      }
    },
    [after],
  );
  return { busy, error, run };
}
