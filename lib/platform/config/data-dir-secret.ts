import fs from "node:fs";
import path from "node:path";

/**
 * A secret generated once per install and kept in `<dataDir>/secrets/<name>` (mode 0600): the same value on
 * every start, never a well-known one. Concurrent first starts agree: the file is created exclusively and a
 * loser of the race reads the winner's value.
 */
export function dataDirSecret(dataDir: string, name: string, generate: () => string): string {
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(name)) throw new Error(`Bad secret name ${name}`);
  const dir = path.join(dataDir, "secrets");
  const file = path.join(dir, name);
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const value = generate();
  try {
    fs.writeFileSync(file, value + "\n", { flag: "wx", mode: 0o600 });
    return value;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return fs.readFileSync(file, "utf8").trim();
    throw err;
  }
}
