import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expectAccessible, expectNoSidewaysScroll } from "../a11y";
import { expect, test } from "../fixtures";
import { newMerchant } from "../merchant-api/merchants";
import { screenshot, sessionCookie, signIn } from "../dashboard/session";
import { decodeRequired, devnetNetworks, evmUsdcBalance, faucet, isEvm } from "../x402/devnet-client";
import { connectEvm, freshEvmWallet, getTestUsdc } from "./flow";

// The page asks for the top-up's requirements where they are answered 200 (a 402 would be logged as a failed resource
// load): any error in the console fails the test (e2e/fixtures.ts).

const TOPUP = "/dashboard/balance/topup";

test("a merchant tops up its balance in USDC with the injected wallet; the ledger shows the credit, once", async ({ page, baseURL, context }, testInfo) => {
  const merchant = await newMerchant(baseURL!, 0);
  await signIn(page, { id: merchant.api_id, secret: merchant.api_secret });
  await page.getByRole("navigation").getByRole("link", { name: "Balance" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Balance" })).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$0.00");
  await expect(page.getByText("No entries yet")).toBeVisible();

  const wallet = await freshEvmWallet(page, baseURL!);
  await page.reload();
  const signatures: string[] = [];
  page.on("request", (req) => {
    const sig = req.headers()["payment-signature"];
    if (req.url().endsWith(TOPUP) && sig) signatures.push(sig);
  });

  const amount = page.getByLabel("Amount (USD)");
  await amount.fill("0.5");
  await amount.blur();
  await expect(page.getByText("Top up from 1.00 to 10,000.00 USD at a time.")).toBeVisible();
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await amount.fill("25.50");
  await connectEvm(page);
  await page.getByRole("radio", { name: wallet.network.name }).check();
  await getTestUsdc(page);
  await expect(page.getByText(`This wallet holds 31.00 USDC on ${wallet.network.name}.`)).toBeVisible();
  await expectAccessible(page, "balance page with a connected wallet");
  await screenshot(page, testInfo, "balance-before");

  await page.getByRole("button", { name: "Top up $25.50" }).click();
  await expect(page.getByRole("status").filter({ hasText: "added to your balance" })).toContainText("$25.50 added to your balance");
  await expect(page.getByTestId("balance")).toHaveText("$25.50");
  // The wallet holds less now (31.00 - 25.50), which the success does not turn into a warning.
  await expect(page.getByText(`This wallet holds 5.50 USDC on ${wallet.network.name}.`)).toBeVisible();
  await expect(page.getByText(/Not enough USDC/)).toHaveCount(0);
  const ledger = page.getByRole("table", { name: "Ledger entries, newest first" });
  await expect(ledger.getByRole("row")).toHaveCount(2);
  const entry = ledger.getByRole("row").nth(1);
  await expect(entry).toContainText("Credit");
  await expect(entry).toContainText("USDC top-up");
  await expect(entry).toContainText("+$25.50");
  await expect(entry).toContainText(wallet.network.name);
  await screenshot(page, testInfo, "balance-after");
  expect(await evmUsdcBalance(wallet.network, wallet.account.address)).toBe(5_500_000n);

  // The merchant API reads the same balance.
  expect((await merchant.call("/accounts/balance")).body.data).toEqual({ balance: 2550, currency: "USD" });

  // The paid request replayed with the same session: the authorization is spent, nothing more is credited.
  expect(signatures).toHaveLength(1);
  const cookie = `${(await sessionCookie(context))!.name}=${(await sessionCookie(context))!.value}`;
  const replay = await fetch(`${baseURL}${TOPUP}`, {
    method: "POST",
    headers: { Origin: baseURL!, Cookie: cookie, "Content-Type": "application/json", "PAYMENT-SIGNATURE": signatures[0]! },
    body: JSON.stringify({ amount: "25.50" }),
  });
  expect(replay.status).toBe(402);
  await page.reload();
  await expect(page.getByTestId("balance")).toHaveText("$25.50");
  await expect(ledger.getByRole("row")).toHaveCount(2);

  // On a phone the page stacks and fits the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, "balance page on a phone");
  await screenshot(page, testInfo, "balance-phone");
});

test("the top-up route: a session and the dashboard's origin are required, bad amounts are 400, any x402 client can pay", async ({
  page,
  baseURL,
  context,
}) => {
  const merchant = await newMerchant(baseURL!, 0);
  await signIn(page, { id: merchant.api_id, secret: merchant.api_secret });
  const session = (await sessionCookie(context))!;
  const cookie = `${session.name}=${session.value}`;
  const post = (headers: Record<string, string>, body: unknown = { amount: "10" }) =>
    fetch(`${baseURL}${TOPUP}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });

  const anonymous = await post({ Origin: baseURL! });
  expect([anonymous.status, ((await anonymous.json()) as { code: string }).code]).toEqual([401, "UNAUTHORIZED"]);
  const foreign = await post({ Origin: "https://evil.example", Cookie: cookie });
  expect([foreign.status, ((await foreign.json()) as { code: string }).code]).toEqual([403, "FORBIDDEN"]);
  for (const body of [{}, { amount: "ten" }, { amount: "0.10" }, { amount: "10.005" }, { amount: 10 }]) {
    const res = await post({ Origin: baseURL!, Cookie: cookie }, body);
    const json = (await res.json()) as { code: string; field?: string };
    expect([res.status, json.code, json.field], JSON.stringify(body)).toEqual([400, "INVALID_PARAMETER", "amount"]);
  }
  const notJson = await fetch(`${baseURL}${TOPUP}`, { method: "POST", headers: { Origin: baseURL!, Cookie: cookie }, body: "amount=10" });
  expect(notJson.status).toBe(400);

  // The 402 offers the amount in USDC on every network of the devnet.
  const challenge = await post({ Origin: baseURL!, Cookie: cookie });
  expect(challenge.status).toBe(402);
  const required = decodeRequired(challenge);
  const networks = await devnetNetworks(baseURL!);
  expect(required.accepts.map((a) => a.network).sort()).toEqual(networks.map((n) => n.network).sort());
  expect(new Set(required.accepts.map((a) => a.amount))).toEqual(new Set(["10000000"]));

  // The official x402 client pays it; the balance is credited once.
  const evm = networks.filter(isEvm)[0]!;
  const account = privateKeyToAccount(generatePrivateKey());
  await faucet(baseURL!, evm.network, account.address, "12");
  const client = new x402Client().register(evm.network as `${string}:${string}`, new ExactEvmScheme(account)).setSpendControls({ allowedAssets: true });
  const withSession: typeof fetch = (input, init) => {
    const req = new Request(input, init);
    req.headers.set("Origin", baseURL!);
    req.headers.set("Cookie", cookie);
    return fetch(req);
  };
  const paid = await wrapFetchWithPayment(withSession, client)(`${baseURL}${TOPUP}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ amount: "10" }),
  });
  const result = (await paid.json()) as { topup_id: string; status: string; amount: string; balance: string; network: string; transaction: string };
  expect(paid.status, JSON.stringify(result)).toBe(200);
  expect(result).toMatchObject({ status: "credited", amount: "10.00", balance: "10.00", network: evm.network });
  expect(result.topup_id).toMatch(/^top_[0-9A-Z]{26}$/);
  expect(paid.headers.get("payment-response")).toBeTruthy();
  expect(await evmUsdcBalance(evm, account.address)).toBe(2_000_000n);
  await page.goto("/dashboard/balance");
  await expect(page.getByTestId("balance")).toHaveText("$10.00");
});
