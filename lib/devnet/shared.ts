import http from "node:http";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { address, createSolanaRpc } from "@solana/kit";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import type { EvmNetwork, PaymentNetwork, SolanaNetwork } from "@/lib/platform/networks";
import { usdcBalance as evmUsdcBalance } from "./evm";
import { devnetKeysFromSecrets, type DevnetSecrets } from "./keys";
import type { Devnet } from "./start-devnet";

/**
 * A devnet shared by several shop servers (and kept across restarts of `npm run dev`): `npm run devnet` starts the
 * local chains in a process of their own and serves, on loopback only,
 *   GET  /        their description, the shape of the shop's `GET /api/dev/devnet` (plus each network's payTo);
 *   GET  /keys    the devnet wallets' secrets (payTo and gas wallets): every server must settle with the same ones;
 *   POST /mint    `{network, address, amount}` (atomic units): the faucet, one queue for every server.
 * A shop started with `DEVNET_URL` set to that URL uses those chains instead of starting its own. The wallets are
 * devnet wallets (generated per install, on chain ids no real network uses): worthless anywhere else.
 */

const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const EvmDescription = z.object({
  key: z.enum(["base", "arbitrum", "polygon", "ethereum"]),
  network: z.string().regex(/^eip155:\d+$/),
  chainId: z.number().int().positive(),
  name: z.string(),
  rpcUrl: z.url(),
  payTo: Address,
  usdc: z.object({ address: Address, name: z.string(), version: z.string(), decimals: z.number().int() }),
  confirmations: z.number().int().min(1).max(1000).optional(),
});
const SolanaDescription = z.object({
  key: z.literal("solana"),
  network: z.string().regex(/^solana:\w+$/),
  name: z.string(),
  rpcUrl: z.url(),
  payTo: z.string(),
  usdc: z.object({ mint: z.string(), decimals: z.number().int() }),
});
export const DevnetDescription = z.object({
  networks: z.array(z.union([EvmDescription, SolanaDescription])).min(1),
  /** Chains where invoices are paid by address only (Ethereum); absent from a devnet of an older build. */
  address_networks: z.array(EvmDescription).optional(),
});
const Secrets = z.object({ evmPayTo: z.string(), evmFacilitator: z.string(), solanaPayTo: z.string(), solanaFacilitator: z.string() });
const MintBody = z.object({ network: z.string().min(1), address: z.string().min(1).max(100), amount: z.string().regex(/^[1-9]\d{0,20}$/) });

const describeEvm = (n: EvmNetwork) => ({
  key: n.key as "base" | "arbitrum" | "polygon" | "ethereum",
  network: n.network,
  chainId: n.chainId,
  name: n.name,
  rpcUrl: n.rpcUrl,
  payTo: n.payTo,
  usdc: n.usdc,
  confirmations: n.confirmations,
});

/** The public description of a devnet's networks (no secrets). */
export function describeDevnet(networks: readonly PaymentNetwork[], addressNetworks: readonly EvmNetwork[] = []): z.infer<typeof DevnetDescription> {
  return {
    ...(addressNetworks.length > 0 ? { address_networks: addressNetworks.map(describeEvm) } : {}),
    networks: networks.map((n) =>
      n.kind === "evm" ? describeEvm(n) : { key: "solana" as const, network: n.network, name: n.name, rpcUrl: n.rpcUrl, payTo: n.payTo, usdc: n.usdc },
    ),
  };
}

/** Serves a running devnet to shop servers on 127.0.0.1 (see above). */
export async function serveDevnet(devnet: Devnet, secrets: DevnetSecrets, port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const description = JSON.stringify(describeDevnet(devnet.networks, devnet.addressNetworks));
  const json = (res: http.ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" }).end(typeof body === "string" ? body : JSON.stringify(body));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > 4096) req.destroy();
      else chunks.push(c);
    });
    req.on("end", () => {
      void (async () => {
        const path = new URL(req.url ?? "/", "http://devnet").pathname;
        if (req.method === "GET" && path === "/") return json(res, 200, description);
        if (req.method === "GET" && path === "/keys") return json(res, 200, secrets);
        if (req.method === "POST" && path === "/mint") {
          let body: unknown;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          } catch {
            return json(res, 400, { error: "the body must be JSON" });
          }
          const parsed = MintBody.safeParse(body);
          if (!parsed.success) return json(res, 400, { error: parsed.error.issues[0]?.message ?? "bad request" });
          const transaction = await devnet.mint(parsed.data.network, parsed.data.address, BigInt(parsed.data.amount));
          return json(res, 200, { transaction });
        }
        return json(res, 404, { error: "not found" });
      })().catch((err: unknown) => json(res, 500, { error: err instanceof Error ? err.message : String(err) }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const STARTUP_WAIT_MS = 60_000;

/**
 * The devnet that another process serves at `url` (`npm run devnet`): its chains, wallets and faucet. Waits up to a
 * minute for it to answer (a devnet and its shops may be started together).
 */
export async function connectDevnet(url: string, opts: { waitMs?: number } = {}): Promise<Devnet> {
  const get = async (path: string) => {
    const res = await fetch(new URL(path, url)).catch((err: unknown) => {
      throw new Error(`The devnet at DEVNET_URL=${url} does not answer (start it with npm run devnet): ${err instanceof Error ? err.message : String(err)}`);
    });
    if (!res.ok) throw new Error(`The devnet at DEVNET_URL=${url} answered ${res.status} to GET ${path}`);
    return res.json();
  };
  // Several processes may start together: give the devnet a minute to come up.
  let first: unknown;
  for (const deadline = Date.now() + (opts.waitMs ?? STARTUP_WAIT_MS); ; await new Promise((r) => setTimeout(r, 500))) {
    try {
      first = await get("/");
      break;
    } catch (err) {
      if (Date.now() > deadline || !/does not answer/.test((err as Error).message)) throw err;
    }
  }
  const description = DevnetDescription.parse(first);
  const keys = await devnetKeysFromSecrets(Secrets.parse(await get("/keys")));
  const evm = (n: z.infer<typeof EvmDescription>) =>
    ({
      ...n,
      kind: "evm",
      network: n.network as `eip155:${number}`,
      payTo: n.payTo,
      usdc: { ...n.usdc, address: n.usdc.address as `0x${string}` },
    }) as EvmNetwork;
  const networks: PaymentNetwork[] = description.networks.map((n) =>
    n.key === "solana" ? ({ ...n, kind: "solana", network: n.network as `solana:${string}` } satisfies SolanaNetwork) : evm(n),
  );
  const addressNetworks = (description.address_networks ?? []).map(evm);
  const find = (network: string) => {
    const n = [...networks, ...addressNetworks].find((x) => x.network === network);
    if (!n) throw new Error(`Unknown devnet network ${network}`);
    return n;
  };
  return {
    networks,
    addressNetworks,
    keys,
    async mint(network, address, amountAtomic) {
      find(network);
      const res = await fetch(new URL("/mint", url), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ network, address, amount: amountAtomic.toString() }),
      });
      const body = (await res.json()) as { transaction?: string; error?: string };
      if (!res.ok || !body.transaction) throw new Error(`The devnet refused to mint: ${body.error ?? res.status}`);
      return body.transaction;
    },
    async balance(network, address) {
      const n = find(network);
      return n.kind === "evm" ? evmUsdcBalance(n.rpcUrl, n.usdc.address, address as `0x${string}`) : tokenBalance(n.rpcUrl, n.usdc.mint, address);
    },
    // The chains belong to the devnet process: a shop that used them leaves them running.
    stop: async () => {},
  };
}

/** A wallet's USDC on a Solana RPC: its associated token account's balance, 0 when it has none. */
async function tokenBalance(rpcUrl: string, mint: string, owner: string): Promise<bigint> {
  const [ata] = await findAssociatedTokenPda({ owner: address(owner), mint: address(mint), tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const rpc = createSolanaRpc(rpcUrl);
  const { value } = await rpc.getAccountInfo(ata, { encoding: "base64" }).send();
  if (!value) return 0n;
  return BigInt((await rpc.getTokenAccountBalance(ata).send()).value.amount);
}
