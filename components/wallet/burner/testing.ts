import type { KeyStore } from "./burner-keys";

/** A KeyStore in memory, for tests (the browser's is localStorage). */
export function memoryStore(): KeyStore & { removeItem(key: string): void; readonly size: number } {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
    get size() {
      return items.size;
    },
  };
}
