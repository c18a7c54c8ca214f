// What the tests of a launcher (`npm run dev`, `npm start`) look at when it stops: the processes it started and the
// port it served. Linux only: the tree is read from /proc.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";

/** Every process below `root` now (children, theirs, …), from /proc: next dev runs in a process group of its own. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name, in parentheses, may hold spaces: the fields after its closing one are fixed.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // It ended meanwhile.
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => (children.get(pid) ?? []).forEach((c) => (found.push(c), walk(c)));
  walk(root);
  return found;
}

/** A process's command line, "" once it has ended. */
export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** Whether `pid` still runs: a zombie (ended, not yet reaped by its parent) runs nothing. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !fs.readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
}

/** Whether something accepts connections on the loopback `port`. */
export const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)));
    socket.on("error", () => resolve(false));
  });

/** Waits until `check` holds, asking every 250 ms; throws naming `what` after `ms`. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** `npm <args>` as a process supervisor starts it: its output kept, the processes below it seen, stopped with a SIGTERM. */
export type Launched = {
  npm: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** The command lines of the processes below npm now (each remembered for the stop). */
  commands(): string[];
  /** A SIGTERM to npm, as a supervisor sends it; resolves once every process seen has ended, throws after `ms`. */
  stop(ms?: number): Promise<void>;
  /** Whatever is left of it killed (SIGKILL), after a failure. */
  kill(): void;
};

export function launch(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): Launched {
  const npm = spawn("npm", args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  npm.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  npm.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const seen = new Set<number>();
  return {
    npm,
    output: () => output,
    commands() {
      const processes = descendants(npm.pid!);
      processes.forEach((p) => seen.add(p));
      return processes.map(commandLine);
    },
    async stop(ms = 40_000) {
      npm.kill("SIGTERM");
      await waitFor(`every process of npm ${args[0]} ended`, () => [...seen].every((p) => !alive(p)), ms);
    },
    kill() {
      for (const p of [npm.pid!, ...seen]) if (alive(p)) process.kill(p, "SIGKILL");
    },
  };
}
