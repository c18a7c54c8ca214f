import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { DEV_USDC_RUNTIME_CODE, DEV_USDC_TOKEN, MULTICALL3_ADDRESS, MULTICALL3_RUNTIME_CODE } from "./artifacts";
import { anvilRpc } from "./rpc";

type Address = `0x${string}`;

export type EvmDevChain = {
  chainId: number;
  name: string;
  rpcUrl: string;
  usdc: { address: Address; name: "USD Coin"; version: "2"; decimals: 6 };
  /** The anvil process id (for diagnostics and tests). */
  pid: number;
  /** Ends anvil gracefully (it dumps its state file first), SIGKILL after 5 s. Safe to call more than once. */
  stop(): Promise<void>;
};

export type StartEvmChainOptions = {
  chainId: number;
  name: string;
  /** Where DevUSDC's runtime code is placed (the same address may serve on every devnet chain). */
  usdcAddress: Address;
  /** Keep chain state here across restarts (anvil `--state`: loaded at start if present, dumped on exit and every 5 s). */
  stateFile?: string;
  /** Accounts that pay gas (facilitators): each gets 1000 ETH at every start. */
  gasWallets?: Address[];
  /** Seconds between blocks (interval mining, as a real chain); 0 or unset: one block per transaction. */
  blockTimeSeconds?: number;
};

const STARTUP_TIMEOUT_MS = 15_000;
const STOP_GRACE_MS = 5_000;
const GAS_WALLET_BALANCE = `0x${(1000n * 10n ** 18n).toString(16)}`;

/**
 * Starts an anvil process on 127.0.0.1 (a free port) standing in for one EVM network, with DevUSDC at `usdcAddress`
 * and Multicall3 at its canonical address. Blocks are mined every `blockTimeSeconds` (or one per transaction) and
 * follow the wall clock, so x402's `validBefore` checks and the token's `block.timestamp` agree.
 */
export async function startEvmChain(opts: StartEvmChainOptions): Promise<EvmDevChain> {
  const bin = resolveAnvilBinary();
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    "0",
    "--chain-id",
    String(opts.chainId),
    // No dev accounts: nothing on this chain is funded by the well-known test mnemonic.
    "--accounts",
    "0",
    "--color",
    "never",
  ];
  if (opts.blockTimeSeconds && opts.blockTimeSeconds > 0) args.push("--block-time", String(opts.blockTimeSeconds));
  if (opts.stateFile) {
    fs.mkdirSync(path.dirname(opts.stateFile), { recursive: true });
    args.push("--state", opts.stateFile, "--state-interval", "5");
  }

  const child = spawn(/*turbopackIgnore: true*/ bin, args, { stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
  const stop = stopper(child);
  // Kill anvil if this process exits without stopping it (signals are left to the app's own shutdown handler).
  const onExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  };
  process.on("exit", onExit);
  child.once("exit", () => process.off("exit", onExit));

  try {
    const port = await waitForPort(child, bin, opts.stateFile);
    const rpcUrl = `http://127.0.0.1:${port}`;
    const id = await anvilRpc<string>(rpcUrl, "eth_chainId");
    if (Number(id) !== opts.chainId) throw new Error(`anvil reports chain id ${Number(id)}, expected ${opts.chainId}`);
    // Placed at every start, so a state file from an older build gets the current code (storage is kept).
    await anvilRpc(rpcUrl, "anvil_setCode", [opts.usdcAddress, DEV_USDC_RUNTIME_CODE]);
    await anvilRpc(rpcUrl, "anvil_setCode", [MULTICALL3_ADDRESS, MULTICALL3_RUNTIME_CODE]);
    for (const wallet of opts.gasWallets ?? []) await anvilRpc(rpcUrl, "anvil_setBalance", [wallet, GAS_WALLET_BALANCE]);
    return {
      chainId: opts.chainId,
      name: opts.name,
      rpcUrl,
      usdc: { address: opts.usdcAddress, ...DEV_USDC_TOKEN },
      pid: child.pid ?? -1,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The anvil executable: $ANVIL_BIN, else the platform package's binary under node_modules (found from the working
 * directory upwards). The platform binary is spawned directly rather than the `node_modules/.bin/anvil` Node wrapper:
 * killing the wrapper with SIGKILL would leave the real anvil running.
 */
export function resolveAnvilBinary(): string {
  if (process.env.ANVIL_BIN) return process.env.ANVIL_BIN;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const exe = process.platform === "win32" ? "anvil.exe" : "anvil";
  const tried: string[] = [];
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const candidates = [
      path.join(dir, "node_modules", "@foundry-rs", `anvil-${process.platform}-${arch}`, "bin", exe),
      path.join(dir, "node_modules", "@foundry-rs", "anvil", "dist", exe),
    ];
    for (const c of candidates) {
      if (fs.existsSync(/*turbopackIgnore: true*/ c)) return c;
      tried.push(c);
    }
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(
    `anvil not found for ${process.platform}-${process.arch} (looked for ${tried[0]} and upwards). ` +
      `Install the npm package @foundry-rs/anvil (it brings @foundry-rs/anvil-${process.platform}-${arch}) or set ANVIL_BIN.`,
  );
}

function waitForPort(child: ChildProcess, bin: string, stateFile: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    let done = false;
    const finish = (e: Error | undefined, port?: number) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.off("error", onError);
      child.off("exit", onEarlyExit);
      if (e) reject(e);
      else resolve(port as number);
    };
    const tail = () => (err.trim() || out.trim()).split("\n").slice(-5).join("\n");
    const onError = (e: Error) => finish(new Error(`Could not start anvil (${bin}): ${e.message}`));
    const onEarlyExit = (code: number | null, signal: NodeJS.Signals | null) => {
      const hint = stateFile && fs.existsSync(stateFile) ? ` Is the state file ${stateFile} damaged?` : "";
      finish(new Error(`anvil exited during start-up (${signal ?? `code ${code}`}).${hint}\n${tail()}`));
    };
    const timer = setTimeout(() => finish(new Error(`anvil did not report its port within ${STARTUP_TIMEOUT_MS / 1000} s\n${tail()}`)), STARTUP_TIMEOUT_MS);
    child.on("error", onError);
    child.on("exit", onEarlyExit);
    // Keep draining both pipes for the whole life of the process: anvil logs every RPC call, and a full pipe
    // would block it. Only the start-up output is looked at.
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      if (done) return;
      out = (out + chunk).slice(-8192);
      const m = /Listening on 127\.0\.0\.1:(\d+)\s/.exec(out);
      if (m?.[1]) finish(undefined, Number(m[1]));
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      if (!done) err = (err + chunk).slice(-8192);
    });
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve();
      // SIGTERM lets anvil write its state file before it exits.
      const killTimer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
      child.once("exit", () => {
        clearTimeout(killTimer);
        resolve();
      });
      child.kill("SIGTERM");
    });
    return stopping;
  };
}
