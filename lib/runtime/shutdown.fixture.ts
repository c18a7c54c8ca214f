// A server's shutdown in miniature, for shutdown.test.ts: a settlement in flight, workers, a database; SIGTERM.
import "@/lib/wiring";
import { acceptingSettlements, drainSettlements, trackSettlement } from "@/lib/payments/in-flight";
import { onShutdown } from "./shutdown";

const log = (line: string) => process.stdout.write(`${line}\n`);
onShutdown(async () => {
  log("database closed");
});
onShutdown(async () => {
  await new Promise((r) => setTimeout(r, 100));
  log("workers stopped");
}, "work");
onShutdown(async () => {
  const { unfinished } = await drainSettlements(5_000);
  log(`intake drained, ${unfinished} unfinished, accepting ${acceptingSettlements()}`);
}, "intake");
void trackSettlement(new Promise<void>((r) => setTimeout(() => (log("settlement recorded"), r()), Number(process.argv[2] ?? 800))));
setInterval(() => undefined, 1_000);
log("ready");
// `self`: it signals itself, for a run as PID 1 of a PID namespace of its own (a container), where no one else can.
if (process.argv[3] === "self") process.kill(process.pid, "SIGTERM");
