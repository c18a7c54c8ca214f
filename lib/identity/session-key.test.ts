import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sessionKeyFrom } from "./session-key";

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "session-key-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const text = (key: Uint8Array) => new TextDecoder().decode(key);

describe("session key", () => {
  it("uses SESSION_SECRET when set, without touching the data folder", () => {
    const dataDir = tempDir();
    expect(text(sessionKeyFrom({ sessionSecret: "s".repeat(40), dataDir }))).toBe("s".repeat(40));
    expect(fs.existsSync(path.join(dataDir, "secrets"))).toBe(false);
  });

  it("otherwise generates 32 random bytes once under DATA_DIR and keeps them across restarts", () => {
    const dataDir = tempDir();
    const first = text(sessionKeyFrom({ sessionSecret: undefined, dataDir }));
    expect(Buffer.from(first, "base64url")).toHaveLength(32);
    expect(text(sessionKeyFrom({ sessionSecret: undefined, dataDir }))).toBe(first);
    expect(text(sessionKeyFrom({ sessionSecret: undefined, dataDir: tempDir() }))).not.toBe(first);
  });
});
