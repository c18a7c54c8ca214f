// After `next build`: completes the standalone server in .next/standalone with what Next.js leaves out of it (the
// static assets and public/), so that `node .next/standalone/server.js` serves the whole shop by itself, as the Docker
// image runs it.
import fs from "node:fs";

const out = ".next/standalone";
if (!fs.existsSync(`${out}/server.js`)) {
  console.error('No standalone server in .next/standalone: is output: "standalone" set in next.config.mjs?');
  process.exit(1);
}
fs.rmSync(`${out}/.next/static`, { recursive: true, force: true });
fs.cpSync(".next/static", `${out}/.next/static`, { recursive: true });
if (fs.existsSync("public")) fs.cpSync("public", `${out}/public`, { recursive: true });
