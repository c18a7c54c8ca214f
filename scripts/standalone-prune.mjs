// Removes from a standalone server folder what only devnet mode loads (the local chains: anvil and litesvm), as the
// Docker image does: `node scripts/standalone-prune.mjs DIR`. The server then runs testnet or mainnet without them.
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
if (!dir || !fs.existsSync(path.join(dir, "server.js"))) {
  console.error("usage: node scripts/standalone-prune.mjs DIR   (DIR holds a standalone server.js)");
  process.exit(2);
}
const modules = path.join(dir, "node_modules");
for (const name of fs.readdirSync(modules)) {
  if (name === "@foundry-rs" || name === "litesvm" || name.startsWith("litesvm-")) fs.rmSync(path.join(modules, name), { recursive: true, force: true });
}
