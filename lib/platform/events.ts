import type { DbOrTx } from "@/lib/platform/db";

/**
 * What the domain announces as it changes state, inside the transaction that makes the change. Lower layers emit;
 * the layers above listen (lib/wiring.ts wires them once), so that an invoice never imports the webhooks or the
 * merchants' balances that react to it.
 */
export type DomainEvents = {
  /**
   * An invoice became final: complete; ended unpaid (expired: a merchant invoice reads `denied`; or `payment_error`);
   * or denied before payment.
   */
  "invoice.final": { invoiceId: string; now: Date };
  /**
   * An invoice's orders may all have ended: one of them was just delivered or failed for good, or a sweep found none
   * open. The invoice's status follows from its orders (lib/checkout's roll-up).
   */
  "invoice.orders-ended": { invoiceId: string; now: Date };
  /** An order failed for good (its failure is being recorded in this transaction). */
  "order.failed": { orderId: string; now: Date };
};
export type DomainEventType = keyof DomainEvents;

/** What a listener did: work to start once the transaction has committed (a worker to kick), if any. */
export type ListenerResult = { afterCommit?: () => void } | void;
type Listener<K extends DomainEventType> = (tx: DbOrTx, event: DomainEvents[K]) => Promise<ListenerResult>;

// In globalThis: one registry per process, whichever copy of this module a bundle loaded (the server's start-up and
// the routes may hold separate ones), and a `next dev` reload replaces a listener rather than adding it twice.
const registry = globalThis as typeof globalThis & { __storefrontListeners?: Map<DomainEventType, Map<string, Listener<never>>> };
const listeners = () => (registry.__storefrontListeners ??= new Map());

/** Registers `listener`, under `name`, for one type of event; the same name again replaces it. */
export function on<K extends DomainEventType>(type: K, name: string, listener: Listener<K>): void {
  const byName = listeners().get(type) ?? new Map();
  byName.set(name, listener as Listener<never>);
  listeners().set(type, byName);
}

/**
 * Runs every listener of the event in the caller's transaction, in the order they were registered, and returns the
 * work to start after the commit. An event nobody listens to is a wiring fault (lib/wiring.ts was not loaded): it
 * throws, so the transaction rolls back rather than silently skip what must happen with it.
 */
export async function emit<K extends DomainEventType>(tx: DbOrTx, type: K, event: DomainEvents[K]): Promise<(() => void)[]> {
  const byName = listeners().get(type);
  if (!byName || byName.size === 0) throw new Error(`No listener for the domain event ${type}: load lib/wiring.ts at start-up`);
  const after: (() => void)[] = [];
  for (const listener of byName.values()) {
    const result = await (listener as Listener<K>)(tx, event);
    if (result?.afterCommit) after.push(result.afterCommit);
  }
  return after;
}

/** Runs the work listeners asked for once their transaction committed; once each. */
export function runAfterCommit(after: (() => void)[]): void {
  for (const work of new Set(after)) work();
}
