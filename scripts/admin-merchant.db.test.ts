import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as creditRoute } from "@/app/api/admin/merchants/[id]/credit/route";
import { GET as showRoute, PATCH as changeRoute } from "@/app/api/admin/merchants/[id]/route";
import { POST as createRoute } from "@/app/api/admin/merchants/route";
import type { Database } from "@/lib/platform/db";
import { openTestDatabase, useAsProcessDatabase } from "@/test/db";
import { authenticate, balanceOf } from "@/lib/merchants";
import { merchantCommand } from "./admin-merchant";

// The CLI against a real HTTP server that serves the admin routes on loopback, as `npm start` would.
let database: Database;
let restore: () => void;
let server: http.Server;
let base: string;

beforeAll(async () => {
  process.env.ADMIN_TOKEN = "adm_cli_test_token_0123456789abcdef";
  database = await openTestDatabase();
  restore = useAsProcessDatabase(database);
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: req.method === "GET" ? undefined : Buffer.concat(chunks),
    });
    const credit = /^\/api\/admin\/merchants\/([^/]+)\/credit$/.exec(req.url ?? "");
    const one = /^\/api\/admin\/merchants\/([^/]+)$/.exec(req.url ?? "");
    const answer = credit
      ? await creditRoute(request, { params: Promise.resolve({ id: decodeURIComponent(credit[1]!) }) })
      : one
        ? await (req.method === "PATCH" ? changeRoute : showRoute)(request, { params: Promise.resolve({ id: decodeURIComponent(one[1]!) }) })
        : await createRoute(request, { params: Promise.resolve({}) });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(await answer.text());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  restore?.();
  await database?.close();
});

async function run(command: string, args: string[]) {
  const out: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
  const err = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
  try {
    return { code: await merchantCommand(command, [...args, "--url", base]), out: out.join("\n") };
  } finally {
    log.mockRestore();
    err.mockRestore();
  }
}

describe("npm run admin -- merchant", () => {
  it("creates a merchant through the admin API and prints working credentials once", async () => {
    const { code, out } = await run("create", ["--name", "CLI shop", "--credit", "100", "--json"]);
    expect(code).toBe(0);
    const created = JSON.parse(out) as { merchant_id: string; api_id: string; api_secret: string };
    const basic = `Basic ${Buffer.from(`${created.api_id}:${created.api_secret}`).toString("base64")}`;
    expect((await authenticate(database.db, basic)).merchant.name).toBe("CLI shop");
    expect(await balanceOf(database.db, created.merchant_id)).toBe(10_000n);

    const credited = await run("credit", [created.merchant_id, "--amount", "2.5"]);
    expect(credited.code).toBe(0);
    expect(JSON.parse(credited.out)).toEqual({ merchant_id: created.merchant_id, balance: 10_250, currency: "USD" });
  });

  it("suspends and re-activates a merchant, and takes its API access away: its credentials then get 403", async () => {
    const created = JSON.parse((await run("create", ["--name", "Suspended shop", "--json"])).out) as { merchant_id: string; api_token: string };
    const bearer = `Bearer ${created.api_token}`;
    expect((await run("suspend", [created.merchant_id])).code).toBe(0);
    await expect(authenticate(database.db, bearer)).rejects.toMatchObject({ code: "forbidden" });
    const shown = await run("show", [created.merchant_id]);
    expect(JSON.parse(shown.out)).toMatchObject({ merchant_id: created.merchant_id, status: "suspended", api_access: true, balance: 0 });
    expect((await run("activate", [created.merchant_id])).code).toBe(0);
    expect((await authenticate(database.db, bearer)).merchant.id).toBe(created.merchant_id);
    expect((await run("api-access", [created.merchant_id, "--off"])).code).toBe(0);
    await expect(authenticate(database.db, bearer)).rejects.toMatchObject({ code: "forbidden", message: "This account has no API access." });
    expect((await run("api-access", [created.merchant_id, "--on"])).code).toBe(0);
    expect((await authenticate(database.db, bearer)).merchant.id).toBe(created.merchant_id);

    expect((await run("api-access", [created.merchant_id])).code).toBe(2);
    expect(await run("suspend", ["mer_nobody"])).toMatchObject({ code: 1, out: expect.stringMatching(/refused \(404\): No merchant mer_nobody/) });
    const bad = await changeRoute(
      new Request("http://x/", { method: "PATCH", headers: { Authorization: `Bearer ${process.env.ADMIN_TOKEN}` }, body: '{"status":"gone"}' }),
      { params: Promise.resolve({ id: created.merchant_id }) },
    );
    expect(bad.status).toBe(400);
  });

  it("says what is wrong: missing name, a refused amount, an unreachable shop", async () => {
    expect((await run("create", [])).code).toBe(2);
    const refused = await run("create", ["--name", "X", "--credit", "lots"]);
    expect(refused).toMatchObject({ code: 1 });
    expect(refused.out).toMatch(/The shop refused \(400\): credit_usd: must be a USD amount/);
    const code = await merchantCommand("create", ["--name", "X", "--url", "http://127.0.0.1:1"]).catch(() => -1);
    expect(code).toBe(1);
  });
});
