// `npm run admin -- merchant ...`: merchants of the merchant API, through the running shop's admin API.
import { parseArgs } from "node:util";
import { adminToken } from "@/lib/merchants/admin-token";
import { shopUrl } from "./admin-shop";

export const MERCHANT_HELP = `  merchant create --name NAME [--credit USD] [--url URL] [--json]
      Creates a merchant through the admin API of the running shop (POST /api/admin/merchants) and prints
      its credentials once: api_id and api_secret (HTTP Basic), api_token (Bearer), webhook_secret.
  merchant credit MERCHANT_ID --amount USD [--url URL]
      Adds to a merchant's balance.
  merchant show MERCHANT_ID [--url URL]
      Prints the merchant's status, API access and balance.
  merchant suspend|activate MERCHANT_ID [--url URL]
      Suspends a merchant (its credentials get 403, its dashboard sessions end) or makes it active again.
  merchant api-access MERCHANT_ID --off|--on [--url URL]
      Takes the merchant's API access away (403) or gives it back.
      --url is the shop; by default the shop server running on DATA_DIR (it records its address in
      DATA_DIR/server.json, whatever its port), or http://127.0.0.1:$PORT when PORT is set. The token is
      ADMIN_TOKEN, or in devnet mode the one the server generated under DATA_DIR.`;

/** Runs a `merchant` command; returns the exit code (1 when the shop refuses, 2 for a usage error). */
export async function merchantCommand(command: string | undefined, args: string[], fetchImpl: typeof fetch = fetch): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      credit: { type: "string" },
      amount: { type: "string" },
      url: { type: "string" },
      json: { type: "boolean", default: false },
      on: { type: "boolean", default: false },
      off: { type: "boolean", default: false },
    },
  });
  const base = shopUrl(values.url);
  const token = adminToken();
  if (!token) {
    console.error("No admin token: set ADMIN_TOKEN (outside devnet mode the shop generates none).");
    return 2;
  }
  let path: string;
  let method = "POST";
  let body: Record<string, unknown> | undefined;
  const id = positionals[0];
  const one = (what: string) => (!id || positionals.length > 1 ? usage(`merchant ${what} needs one MERCHANT_ID.`) : undefined);
  if (command === "create") {
    if (!values.name || positionals.length > 0) return usage("merchant create needs --name.");
    path = "/api/admin/merchants";
    body = { name: values.name, ...(values.credit !== undefined ? { credit_usd: values.credit } : {}) };
  } else if (command === "credit") {
    if (!id || !values.amount || positionals.length > 1) return usage("merchant credit needs a MERCHANT_ID and --amount.");
    path = `/api/admin/merchants/${encodeURIComponent(id)}/credit`;
    body = { amount_usd: values.amount };
  } else if (command === "show" || command === "suspend" || command === "activate" || command === "api-access") {
    const bad = one(command);
    if (bad !== undefined) return bad;
    path = `/api/admin/merchants/${encodeURIComponent(id!)}`;
    if (command === "show") method = "GET";
    else {
      method = "PATCH";
      if (command === "api-access") {
        if (values.on === values.off) return usage("merchant api-access needs --on or --off.");
        body = { api_access: values.on };
      } else body = { status: command === "suspend" ? "suspended" : "active" };
    }
  } else {
    return usage(`Unknown merchant command: ${command ?? "(none)"}`);
  }

  let res: Response;
  try {
    res = await fetchImpl(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    console.error(
      `Cannot reach the shop at ${base}: ${(err as Error).message}. Start it (npm run dev / npm start), or pass --url (or PORT) if it listens elsewhere.`,
    );
    return 1;
  }
  const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    console.error(`The shop refused (${res.status}): ${String(answer.message ?? res.statusText)}`);
    return 1;
  }
  if (values.json || command !== "create") console.log(JSON.stringify(answer, null, 2));
  else {
    console.log(`Merchant ${String(answer.merchant_id)} created. These secrets are shown once: keep them now.`);
    for (const k of ["api_id", "api_secret", "api_token", "webhook_secret"]) console.log(`  ${k.padEnd(15)} ${String(answer[k])}`);
  }
  return 0;
}

function usage(problem: string): number {
  console.error(`${problem}\n\n${MERCHANT_HELP}`);
  return 2;
}
