import { log } from "@/lib/platform/log";

/**
 * A request whose client went away before its body was read (a browser tab closed, a page left mid-upload): Node.js
 * fails the read with `Error: aborted` (code ECONNRESET). It is the client's doing, not a fault of the shop.
 */
export function isClientAbort(err: unknown): boolean {
  return err instanceof Error && err.message === "aborted" && (err as NodeJS.ErrnoException).code === "ECONNRESET";
}

const installed = Symbol.for("storefront.clientAbortsQuiet");

/**
 * Next.js logs such an abort as an error: `uncaughtException: Error: aborted` when the failed read reaches the process
 * (its router server's own uncaughtException listener), and `⨯ Error: aborted` when its request handler catches it.
 * Both are noted at debug level instead; every other exception and error line goes on as before. The process's
 * `emit` is wrapped rather than a listener added, because Next's listener would log it whatever another one does.
 */
export function quietClientAborts(proc: NodeJS.Process = process, cons: Pick<Console, "error"> = console): void {
  const marked = proc as NodeJS.Process & { [installed]?: true };
  if (marked[installed]) return;
  marked[installed] = true;
  const note = () => log.debug("a client closed its connection before its request was read (ECONNRESET)");
  const emit = proc.emit as (this: NodeJS.Process, event: string | symbol, ...args: unknown[]) => boolean;
  proc.emit = function (this: NodeJS.Process, event: string | symbol, ...args: unknown[]) {
    if (event === "uncaughtException" && isClientAbort(args[0])) {
      note();
      return true;
    }
    return emit.apply(this, [event, ...args]);
  } as typeof proc.emit;
  const error = cons.error;
  cons.error = function (this: unknown, ...args: unknown[]) {
    if (args.some(isClientAbort)) return note();
    return error.apply(this, args);
  };
}
