import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dataDirSecret } from "./data-dir-secret";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("dataDirSecret", () => {
  it("generates once, keeps the value, and protects the file", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secret-"));
    dirs.push(dir);
    let n = 0;
    const gen = () => `value-${++n}`;
    expect(dataDirSecret(dir, "session-secret", gen)).toBe("value-1");
    expect(dataDirSecret(dir, "session-secret", gen)).toBe("value-1");
    expect(n).toBe(1);
    expect(fs.statSync(path.join(dir, "secrets", "session-secret")).mode & 0o777).toBe(0o600);
    expect(() => dataDirSecret(dir, "../escape", gen)).toThrow();
  });
});
