import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { parseUnits } from "viem";
import { decodeRequired, devnetNetworks, evmUsdcBalance, isEvm } from "./devnet-client";

// `npm run agent` (scripts/agent.ts), run as a developer runs it, against this devnet shop: a burner wallet funded by
// the faucet buys a gift card over /x402 and over /mcp with the official clients, and prints each step. What it says it
// paid is what the shop's payTo received, to the atomic unit.

const run = promisify(execFile);
const ROOT = path.join(__dirname, "..", "..");

test("npm run agent buys a gift card over /x402 and over /mcp and prints the codes it got", async ({ baseURL }) => {
  test.setTimeout(180_000);
  const base = (await devnetNetworks(baseURL!)).find(isEvm)!;
  const payTo = decodeRequired(await fetch(`${baseURL}/x402/gift-cards/search?q=steam`)).accepts.find((a) => a.network === base.network)!.payTo;
  const before = await evmUsdcBalance(base, payTo);

  const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/agent.ts", "--url", baseURL!], { cwd: ROOT, timeout: 150_000 });
  const lines = stdout.split("\n");
  const http = lines.indexOf("Over HTTP (/x402), with @x402/fetch:");
  const mcp = lines.findIndex((l) => l.startsWith("Over MCP (/mcp)"));
  expect(http, stdout).toBeGreaterThan(0);
  expect(mcp, stdout).toBeGreaterThan(http);
  // A delivered code on each path, read by the wallet that paid.
  const delivered = (from: number, to: number) => lines.slice(from, to).filter((l) => /^\s+delivered: code \S+/.test(l));
  expect(delivered(http, mcp), stdout).toHaveLength(1);
  expect(delivered(mcp, lines.length), stdout).toHaveLength(1);
  expect(stdout).toMatch(/^Done: two gift cards bought and delivered/m);
  // Plain lines: no JSON dumped.
  expect(lines.filter((l) => /^\s*[[{]/.test(l))).toEqual([]);

  // Three fees and an invoice on each path, each signed payment settled to the payTo and nothing else.
  const signed = lines.flatMap((l) => /signed a payment of ([\d.]+) USDC/.exec(l)?.[1] ?? []);
  expect(signed).toHaveLength(8);
  expect(lines.filter((l) => /settled on .*: transaction 0x/.test(l))).toHaveLength(8);
  const paid = signed.reduce((sum, amount) => sum + parseUnits(amount, 6), 0n);
  expect(await evmUsdcBalance(base, payTo)).toBe(before + paid);
});
