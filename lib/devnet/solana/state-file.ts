import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";

/** One account as kept in the state file. */
export type StoredAccount = {
  /** Decimal string (u64). */
  lamports: string;
  /** Owner program, base58. */
  owner: string;
  /** Account data, standard base64. */
  data: string;
  executable: boolean;
};

/**
 * What the local Solana chain keeps across restarts: its keys and every account that a successful
 * transaction wrote or the faucet set. Programs are not kept: litesvm loads them itself.
 */
export type SolanaChainState = {
  version: 1;
  /** When slot 0 was: slots are counted from it at 400 ms each, so they keep growing across restarts. */
  genesisTimeMs: number;
  /** 32-byte Ed25519 private keys (seeds), base58, and their addresses. */
  mint: { address: string; secretKey: string };
  mintAuthority: { address: string; secretKey: string };
  accounts: Record<string, StoredAccount>;
};

/** Reads the state file; null when there is none yet. A file that exists but cannot be read is an error. */
export function readStateFile(file: string): SolanaChainState | null {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch (err) {
    throw new Error(`The Solana devnet state file ${file} is not valid JSON (${(err as Error).message})`);
  }
  if (!isState(state)) throw new Error(`The Solana devnet state file ${file} is not a version 1 state`);
  return state;
}

function isState(v: unknown): v is SolanaChainState {
  if (typeof v !== "object" || v === null) return false;
  const s = v as Partial<SolanaChainState>;
  const key = (k: unknown) =>
    typeof k === "object" &&
    k !== null &&
    typeof (k as { address?: unknown }).address === "string" &&
    typeof (k as { secretKey?: unknown }).secretKey === "string";
  return s.version === 1 && typeof s.genesisTimeMs === "number" && key(s.mint) && key(s.mintAuthority) && typeof s.accounts === "object" && s.accounts !== null;
}

/**
 * Writes the state after changes: at most one write per `delayMs` however many changes come in, each write
 * to a temporary file renamed over the real one (a crash never leaves half a file), one write at a time.
 */
export class StateWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private lastError: Error | undefined;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => SolanaChainState,
    private readonly delayMs = 100,
  ) {}

  /** Asks for a write soon. */
  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.enqueue();
    }, this.delayMs);
    this.timer.unref();
  }

  /** Writes now (after any write in progress) and waits for it. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.enqueue();
    if (this.lastError) throw this.lastError;
  }

  private enqueue(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  private async write(): Promise<void> {
    const tmp = `${this.file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await fsp.mkdir(path.dirname(this.file), { recursive: true });
      await fsp.writeFile(tmp, JSON.stringify(this.snapshot()), { mode: 0o600 });
      await fsp.rename(tmp, this.file);
      this.lastError = undefined;
    } catch (err) {
      this.lastError = err as Error;
      await fsp.rm(tmp, { force: true }).catch(() => {});
      console.error(`Could not write the Solana devnet state to ${this.file}:`, err);
    }
  }
}
