// Removes from a standalone server folder what only devnet mode loads (the local chains: anvil and litesvm), as the
// Docker image does: `node scripts/standalone-prune.mjs DIR`. The server then runs testnet or mainnet without them.
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
if (!dir || !fs.existsSync(path.join(dir, "server.js"))) {
  console.error("usage: node scripts/standalone-prune.mjs DIR   (DIR holds a standalone server.js)");
  process.exit(2);
}
const devnetOnly = (name) => name === "@foundry-rs" || name === "litesvm" || name.startsWith("litesvm-");
// The packages, and the server bundle's links to them (.next/node_modules/litesvm-<hash>), which would point nowhere.
for (const modules of [path.join(dir, "node_modules"), path.join(dir, ".next", "node_modules")]) {
  if (!fs.existsSync(modules)) continue;
  for (const name of fs.readdirSync(modules)) if (devnetOnly(name)) fs.rmSync(path.join(modules, name), { recursive: true, force: true });
}
