import fs from "node:fs";
import path from "node:path";
import { startBareRoute } from "./processes";
import { interleaved, throughputLine } from "./load";

async function main() {
  const a = await startBareRoute();
  const proxySrc = `import { NextResponse } from "next/server";
export function proxy(request) {
  return NextResponse.next();
}
export const config = { matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"] };
`;
  const app = path.join(import.meta.dirname, "bare-route", "app");
  const root = path.dirname(app);
  fs.writeFileSync(path.join(root, "proxy.js"), proxySrc);
  // startBareRoute copies only app/: patch to copy the proxy too
  const orig = fs.cpSync;
  (fs as { cpSync: typeof fs.cpSync }).cpSync = ((src: string, dest: string, opts: fs.CopySyncOptions) => {
    orig(src, dest, opts);
    if (src === app) fs.copyFileSync(path.join(root, "proxy.js"), path.join(path.dirname(dest), "proxy.js"));
  }) as typeof fs.cpSync;
  const b = await startBareRoute();
  fs.rmSync(path.join(root, "proxy.js"));
  try {
    for (let r = 0; r < 2; r++) {
      const [x, y] = await interleaved([() => fetch(a.url), () => fetch(b.url)], { clients: 8, seconds: 10 });
      console.log(throughputLine("bare", x!));
      console.log(throughputLine("bare + proxy", y!, x));
    }
  } finally {
    await a.stop();
    await b.stop();
  }
}
void main();
