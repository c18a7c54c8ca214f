// Adds lock entries for other platforms' optional native builds that this registry does not serve, so `npm ci`
// sees a lock in sync with package.json; on this platform they are skipped by their os/cpu without being fetched.
import fs from "node:fs";
const file = process.argv[2] ?? "package-lock.json";
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const pkgs = lock.packages;
const cpuOf = (n) =>
  /arm64|aarch64/.test(n)
    ? "arm64"
    : /amd64|x64/.test(n)
      ? "x64"
      : /ia32/.test(n)
        ? "ia32"
        : /-arm-|arm-eabi|armv7/.test(n)
          ? "arm"
          : /loong64/.test(n)
            ? "loong64"
            : /ppc64/.test(n)
              ? "ppc64"
              : /riscv64/.test(n)
                ? "riscv64"
                : /s390x/.test(n)
                  ? "s390x"
                  : /wasm32/.test(n)
                    ? "wasm32"
                    : null;
const osOf = (n) => ["darwin", "win32", "linux", "android", "freebsd", "openharmony"].find((o) => n.includes(`-${o}-`)) ?? null;
let added = 0;
for (const [path, entry] of Object.entries(pkgs)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (pkgs[key] || pkgs[`${path}/node_modules/${name}`]) continue;
    const os = osOf(name),
      cpu = cpuOf(name);
    if (!cpu) throw new Error(`cannot tell the platform of ${name}`);
    const libc = /musl/.test(name) ? ["musl"] : /-gnu/.test(name) ? ["glibc"] : undefined;
    pkgs[key] = { version, optional: true, ...(os ? { os: [os] } : {}), cpu: [cpu], ...(libc ? { libc } : {}) };
    added++;
  }
}
// In npm's own order (its arborist sorts with an "en" collator: "string_decoder" before "string-width"), so that a plain
// `npm install` that changes nothing writes the same bytes back.
const collator = new Intl.Collator("en");
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : collator.compare(a, b))));
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
console.log(`added ${added} lock entries`);
