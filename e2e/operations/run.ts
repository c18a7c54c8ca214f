import { fuzzCases, type Credentials, type FuzzCase } from "./cases";

export type FuzzFailure = { case: FuzzCase; status: number | string; body: string };

/** Sends every case to the shop at `baseURL` (a few at a time) and returns those answered 5xx or not at all. */
export async function runFuzz(
  baseURL: string,
  creds: Credentials,
  opts: { seed?: number; extra?: number; concurrency?: number } = {},
): Promise<{ sent: number; unsendable: number; failures: FuzzFailure[]; statuses: Record<string, number> }> {
  const cases = fuzzCases(creds, opts);
  const failures: FuzzFailure[] = [];
  const statuses: Record<string, number> = {};
  let next = 0;
  let sent = 0;
  let unsendable = 0;
  const worker = async () => {
    for (;;) {
      const c = cases[next++];
      if (!c) return;
      let init: RequestInit;
      try {
        init = {
          method: c.method,
          headers: new Headers(c.headers),
          body: c.body as BodyInit | undefined,
          redirect: "manual",
          signal: AbortSignal.timeout(30_000),
        };
      } catch {
        unsendable++;
        continue;
      }
      try {
        const res = await fetch(new URL(c.path, baseURL), init);
        const body = await res.text();
        sent++;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status >= 500) failures.push({ case: c, status: res.status, body: body.slice(0, 300) });
      } catch (err) {
        // fetch refuses some header values itself (NUL, characters beyond Latin-1): those never reach the shop.
        if (err instanceof TypeError && !/fetch failed/.test(err.message)) unsendable++;
        else failures.push({ case: c, status: `no answer: ${(err as Error).message}`, body: "" });
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 6 }, worker));
  return { sent, unsendable, failures, statuses };
}

/** Business keys of `count` new merchants on the shop, made through its admin API. */
export async function merchantCredentials(baseURL: string, adminToken: string, count = 12): Promise<Credentials> {
  const merchantBasic: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(new URL("/api/admin/merchants", baseURL), {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: `Fuzz merchant ${i + 1}`, credit_usd: 5 }),
    });
    if (res.status !== 201) throw new Error(`cannot create a merchant: ${res.status} ${await res.text()}`);
    const m = (await res.json()) as { api_id: string; api_secret: string };
    merchantBasic.push(`Basic ${Buffer.from(`${m.api_id}:${m.api_secret}`).toString("base64")}`);
  }
  return { merchantBasic, admin: adminToken };
}
