// `npm run agent`: an agent's first purchase, against the devnet shop running on this machine (`npm run dev`). With a
// new burner wallet and test USDC from the devnet faucet, it buys a gift card twice, with the official clients:
//   - over HTTP (/x402) with @x402/fetch: search, product detail, invoice, payment, then the status until the code;
//   - over MCP (/mcp) with the MCP SDK's client, paying with the x402 MCP transport (the 402 comes back as the tool's
//     error; the payment goes in _meta["x402/payment"], the receipt comes back in _meta["x402/payment-response"]).
// Each step is printed as a line. It pays real (test) USDC on the local chains; nothing leaves this machine.
//   npm run agent [-- --url http://127.0.0.1:3000] [--query steam]
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequired, SettleResponse } from "@x402/core/types";
import { formatUnits, parseUnits } from "viem";
import { config } from "@/lib/platform/config";
import { recordedServer, SERVER_RECORD_FILE } from "@/lib/server/address-record";
import { devnetBuyer } from "./x402-buyer";

/** The most the agent lets its x402 client pay at once (a spend control of the official client), in USDC. */
const MAX_PAYMENT_USDC = "100";
/** How long a shop may take to answer its first request before the agent says it waits for it, and how long it waits. */
const FIRST_ANSWER_MS = 10_000;
const START_WAIT_MS = 180_000;
/** How long the agent waits for the code after paying. */
const DELIVERY_WAIT_MS = 60_000;

const HELP = `Usage: npm run agent [-- --url URL] [--query WORDS]

Buys a gift card from the devnet shop twice, over /x402 and over /mcp, with a new burner wallet and test USDC from
the devnet faucet, and prints each step. The shop is found by itself: the address a running shop recorded in its data
folder (DATA_DIR, default .data), else http://127.0.0.1:$PORT (3000). --url names another. --query chooses the gift
card (default: steam).`;

type Product = { slug: string; name: string };
type Detail = {
  product: Product;
  recipient: { required: boolean };
  packages: { package_value: string; currency: string; price_usdc: string; in_stock: boolean }[];
};
type Invoice = { invoice_id: string; price_usdc: string; expires_in_minutes: number };
type Status = { status: string; error_code?: string; redemption_info?: { code?: string; pin?: string; link?: string }[] };

/** Refusals the agent explains in a sentence (no shop, a shop not on the devnet, a purchase that failed). */
class AgentError extends Error {}

const say = (line = "") => console.log(line);
const usdc = (atomic: string | bigint) => formatUnits(BigInt(atomic), 6);
const short = (hex: string) => (hex.length > 14 ? `${hex.slice(0, 8)}…${hex.slice(-4)}` : hex);

/** The shop to buy from: --url, else the address a running shop recorded in DATA_DIR, else 127.0.0.1:$PORT. */
async function findShop(url: string | undefined): Promise<string> {
  const c = config();
  const recorded = url ? undefined : recordedServer(c.dataDir);
  const base = (url ?? recorded?.url ?? `http://127.0.0.1:${c.port}`).replace(/\/+$/, "");
  const where = url ? "given with --url" : recorded ? `recorded in ${c.dataDir}/${SERVER_RECORD_FILE}` : "the default address";
  // A shop just started with `npm run dev` accepts the connection at once but answers its first request only once that
  // route is compiled (20-60 s on a small machine): a shop that is slow to answer, or answers 503 while it starts, is
  // waited for; nothing listening is no shop.
  const deadline = Date.now() + START_WAIT_MS;
  let waiting = false;
  const wait = (why: string) => {
    if (!waiting) say(`The shop at ${base} ${why}: waiting for it (up to ${START_WAIT_MS / 60_000} minutes)…`);
    waiting = true;
  };
  let res: Response;
  for (;;) {
    try {
      res = await fetch(`${base}/api/dev/devnet`, { signal: AbortSignal.timeout(waiting ? Math.max(1_000, deadline - Date.now()) : FIRST_ANSWER_MS) });
    } catch (err) {
      const timedOut = err instanceof DOMException && err.name === "TimeoutError";
      if (timedOut && Date.now() < deadline) {
        wait("accepts connections but has not answered yet (is it compiling its first page?)");
        continue;
      }
      if (timedOut) throw new AgentError(`The shop at ${base} did not answer within ${START_WAIT_MS / 60_000} minutes. Is it stuck? Its terminal says more.`);
      throw new AgentError(
        url
          ? `No shop answers at ${base}. Check the address, or start the shop with \`npm run dev\`.`
          : `No shop is running: nothing answers at ${base} (${where}). Start it with \`npm run dev\` in another terminal, ` +
              "wait for it to say it is ready, then run `npm run agent` again (or pass --url URL for a shop elsewhere).",
      );
    }
    if (res.status !== 503 || Date.now() >= deadline) break;
    wait("is starting (503)");
    await new Promise((r) => setTimeout(r, 1_000));
  }
  if (res.status === 404) {
    throw new AgentError(
      `The shop at ${base} is not on the devnet: the agent pays with test USDC from the devnet faucet, which only a shop ` +
        "in devnet mode has (NETWORK_MODE=devnet, the default of `npm run dev`).",
    );
  }
  if (!res.ok) throw new AgentError(`The shop at ${base} answered ${res.status} to GET /api/dev/devnet: is it starting? Try again in a moment.`);
  say(`Shop: ${base} (devnet, ${where})`);
  return base;
}

/** The answer's JSON, or an AgentError with the shop's own message. */
async function json<T>(res: Response, what: string): Promise<T> {
  const body = (await res.json().catch(() => ({}))) as T & { message?: string };
  if (!res.ok) throw new AgentError(`${what} was refused (${res.status}): ${body.message ?? "no message"}`);
  return body;
}

/** The cheapest package in stock of a product, or an AgentError when there is none to buy without a recipient. */
function choosePackage(detail: Detail) {
  if (detail.recipient.required) throw new AgentError(`${detail.product.slug} needs a recipient: choose another gift card with --query.`);
  const pkg = detail.packages.filter((p) => p.in_stock).sort((a, b) => Number(a.price_usdc) - Number(b.price_usdc))[0];
  if (!pkg) throw new AgentError(`${detail.product.slug} has no package in stock: choose another gift card with --query.`);
  return pkg;
}

/** Polls the invoice's status until it is final; prints each status it sees, then the codes. */
async function untilDelivered(read: () => Promise<Status>): Promise<void> {
  const deadline = Date.now() + DELIVERY_WAIT_MS;
  let seen = "";
  for (;;) {
    const s = await read();
    if (s.status !== seen) say(`     status: ${(seen = s.status)}`);
    if (s.status === "complete") {
      const codes = (s.redemption_info ?? []).filter((r) => r.code || r.link);
      if (codes.length === 0) throw new AgentError(`The invoice is complete but delivered no code${s.error_code ? ` (${s.error_code})` : ""}.`);
      for (const r of codes) say(`     delivered: ${r.code ? `code ${r.code}${r.pin ? `, PIN ${r.pin}` : ""}` : `link ${r.link}`}`);
      return;
    }
    if (["expired", "denied", "payment_error"].includes(s.status)) throw new AgentError(`The invoice ended ${s.status}.`);
    if (Date.now() > deadline) throw new AgentError(`No code within ${DELIVERY_WAIT_MS / 1000} s: the invoice is still ${s.status}.`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({ options: { url: { type: "string" }, query: { type: "string", default: "steam" }, help: { type: "boolean" } } }));
  } catch (err) {
    throw new AgentError(`${(err as Error).message}\n\n${HELP}`);
  }
  if (values.help) return say(HELP);
  const base = await findShop(values.url);
  const query = values.query;

  // The wallet: a new key that lives in this process only, with a little test USDC for the micro-fees.
  const buyer = await devnetBuyer(base, "1");
  say(`Wallet: ${buyer.account.address} (a new burner key), paying on ${buyer.networkName}, ${buyer.network}`);
  say(`Faucet: 1 test USDC for the micro-fees`);
  // The official client's spend controls: the shop's devnet USDC is allowed, at most MAX_PAYMENT_USDC a payment.
  buyer.client.setSpendControls({
    allowedAssets: [{ network: buyer.network, asset: buyer.usdcAsset, maxAmountPerPayment: parseUnits(MAX_PAYMENT_USDC, 6).toString() }],
  });
  // Every payment the client signs, over HTTP or MCP, is printed as it is signed.
  buyer.client.onAfterPaymentCreation(async ({ selectedRequirements: r }) => say(`     signed a payment of ${usdc(r.amount)} USDC to ${short(r.payTo)}`));
  const settled = (receipt: SettleResponse | undefined) => say(`     settled on ${buyer.networkName}: transaction ${short(receipt?.transaction ?? "?")}`);
  /** Test USDC for an invoice's price, as the shop's burner wallet asks the faucet for it. */
  const fundFor = async (price: string) => {
    const { balance } = await buyer.fund(price);
    say(`     faucet: ${price} test USDC for it (balance ${usdc(balance)} USDC)`);
  };

  // --- Over HTTP: the /x402 routes, paid with @x402/fetch (it answers each 402 by paying and calling again) ---------
  say();
  say("Over HTTP (/x402), with @x402/fetch:");
  /** A call of an /x402 route; @x402/fetch pays the 402 it may get, and the receipt comes in PAYMENT-RESPONSE. */
  const x402 = async <T>(what: string, path: string, body?: unknown): Promise<T> => {
    const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    const res = await buyer.pay(`${base}${path}`, init);
    const answer = await json<T>(res, what);
    const receipt = res.headers.get("payment-response");
    if (receipt) settled(decodePaymentResponseHeader(receipt));
    return answer;
  };

  say(`  1. Search gift cards for "${query}": GET /x402/gift-cards/search`);
  const found = await x402<{ total: number; products: Product[] }>("The search", `/x402/gift-cards/search?q=${encodeURIComponent(query)}`);
  const product = found.products[0];
  if (!product) throw new AgentError(`No gift card matches "${query}": try another --query.`);
  say(`     ${found.total} found; taking ${product.slug} (${product.name})`);

  say(`  2. Its packages: GET /x402/products/detail`);
  const pkg = choosePackage(await x402<Detail>("The product detail", `/x402/products/detail?slug=${encodeURIComponent(product.slug)}`));
  say(`     the cheapest in stock: ${pkg.package_value} ${pkg.currency}, for ${pkg.price_usdc} USDC`);

  say(`  3. An invoice that locks the price: POST /x402/invoice/create`);
  const items = [{ product_id: product.slug, package_value: pkg.package_value }];
  const invoice = await x402<Invoice>("The invoice", "/x402/invoice/create", { items });
  say(`     ${invoice.invoice_id}: ${invoice.price_usdc} USDC, for ${invoice.expires_in_minutes} minutes, to this wallet (it paid the fee)`);
  await fundFor(invoice.price_usdc);

  say(`  4. Pay it: POST /x402/invoice/pay`);
  await x402("The payment", "/x402/invoice/pay", { invoice_id: invoice.invoice_id });

  say(`  5. Sign in once (SIWX) for a session token: POST /x402/connect`);
  const token = await buyer.signIn();
  say(`     a token: the status is then free, and shows the codes to the wallet that paid`);

  say(`  6. Wait for the code: GET /x402/invoice/status`);
  await untilDelivered(async () => {
    const res = await fetch(`${base}/x402/invoice/status?invoice_id=${invoice.invoice_id}`, { headers: { "X-Access-Token": token } });
    return json<Status>(res, "The status");
  });

  // --- Over MCP: the same purchase as tools, paid with the x402 MCP transport -------------------------------------
  say();
  say("Over MCP (/mcp), with the MCP SDK's client and x402 payments in _meta:");
  const mcp = new Client({ name: "storefront-agent", version: "1.0.0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL("/mcp", base)));
  try {
    const call = async (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
      (await mcp.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as CallToolResult;
    /** A tool call; when it answers a PaymentRequired, the client signs one of its accepts and calls again with it. */
    const tool = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
      let result = await call(name, args);
      const required = result.structuredContent as Partial<PaymentRequired> | undefined;
      if (result.isError && required?.x402Version && required.accepts) {
        const payment = await buyer.client.createPaymentPayload({
          ...(required as PaymentRequired),
          accepts: required.accepts.filter((a) => a.network === buyer.network),
        });
        result = await call(name, args, { "x402/payment": payment });
        if (!result.isError) settled(result._meta?.["x402/payment-response"] as SettleResponse | undefined);
      }
      const body = result.structuredContent as T & { message?: string };
      if (result.isError) throw new AgentError(`The tool ${name} answered an error: ${body.message ?? JSON.stringify(body).slice(0, 200)}`);
      return body;
    };

    const { tools } = await mcp.listTools();
    say(`  1. Connected: ${tools.length} tools (${tools.map((t) => t.name).join(", ")})`);
    say(`  2. search_products "${query}"`);
    const mcpFound = await tool<{ total: number; products: Product[] }>("search_products", { kind: "gift_card", query });
    const mcpProduct = mcpFound.products[0];
    if (!mcpProduct) throw new AgentError(`No gift card matches "${query}" over MCP.`);
    say(`     ${mcpFound.total} found; taking ${mcpProduct.slug}`);
    say(`  3. get_product`);
    const mcpPkg = choosePackage(await tool<Detail>("get_product", { slug: mcpProduct.slug }));
    say(`     the cheapest in stock: ${mcpPkg.package_value} ${mcpPkg.currency}, for ${mcpPkg.price_usdc} USDC`);
    say(`  4. create_invoice`);
    const mcpInvoice = await tool<Invoice>("create_invoice", { items: [{ product_id: mcpProduct.slug, package_value: mcpPkg.package_value }] });
    say(`     ${mcpInvoice.invoice_id}: ${mcpInvoice.price_usdc} USDC`);
    await fundFor(mcpInvoice.price_usdc);
    say(`  5. pay_invoice`);
    await tool("pay_invoice", { invoice_id: mcpInvoice.invoice_id });
    say(`  6. get_invoice until the code (with the session token as access_token)`);
    await untilDelivered(() => tool<Status>("get_invoice", { invoice_id: mcpInvoice.invoice_id, access_token: token }));
  } finally {
    await mcp.close();
  }

  say();
  say(`Done: two gift cards bought and delivered, one over /x402 and one over /mcp, by ${buyer.account.address}.`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof AgentError ? err.message : err);
    process.exit(1);
  },
);
