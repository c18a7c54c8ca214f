// The address watcher at scale (`npm run bench -- addresses`): 1,000 and 10,000 open invoice addresses on one network
// (an anvil chain mining a block a second, the devnet's cadence), watched the way a server's `addresses` loop watches
// them. Per round (one block): the RPC calls made, the CPU time of the watcher (this process) and of the node, and the
// round's wall time; and the time from a payment's block reaching the network's depth to its invoice being paid, with
// the loop running every 2 s as on a server. The watcher runs in this process on an embedded database of its own.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { createPublicClient, createWalletClient, encodeFunctionData, http, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { openDatabase } from "../../lib/platform/db/client";
import { invoices, paymentAddresses } from "../../lib/platform/db/schema";
import { DEVNET_EVM_CHAINS, DEVNET_USDC_ADDRESS } from "../../lib/devnet/chains";
import { mintUsdc, startEvmChain } from "../../lib/devnet/evm";
import { evmNetwork } from "../../lib/devnet/start-devnet";
import { DEV_USDC_ABI } from "../../lib/devnet/evm/artifacts";
import { forwarderAddress, FORWARDER_FACTORY, invoiceSalt, readClient } from "../../lib/payments/forwarders";
import { watchAddresses, type AddressEffect } from "../../lib/payments/address-watch";
import { addressPaymentEffect } from "../../lib/checkout/address-payment";
import { ownCpuMs } from "./processes";
import type { Value } from "./figures";

const ROUNDS = 5;
const LOOP_MS = 2_000;

type Note = (table: string, column: string, row: string, value: Value) => void;

/** What one request of the bare route costs in CPU: measured by the caller beside these figures. */
export async function addresses(note: Note, bareCpuMsPerRequest: number): Promise<void> {
  const table = "Payment addresses watched, a block a second (anvil, depth 2)";
  const base = DEVNET_EVM_CHAINS[0];
  const gas = privateKeyToAccount(generatePrivateKey());
  const payer = privateKeyToAccount(generatePrivateKey());
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const chain = await startEvmChain({
    chainId: base.chainId,
    name: base.name,
    usdcAddress: DEVNET_USDC_ADDRESS,
    gasWallets: [gas.address, payer.address],
    blockTimeSeconds: 1,
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-addresses-"));
  const database = await openDatabase({ driver: "pglite", dataDir, role: "bench-addresses" });
  try {
    await mintUsdc(chain.rpcUrl, DEVNET_USDC_ADDRESS, payer.address, 1_000_000_000n);
    const network = evmNetwork("base", chain, payTo, 2);
    const client = readClient(network);
    const expires = new Date(Date.now() + 60 * 60_000);
    let opened = 0;
    /** Open invoices with addresses, up to `n` in all (no orders: the watcher reads and decides the same). */
    const openUpTo = async (n: number) => {
      for (; opened < n;) {
        const batch = Array.from({ length: Math.min(500, n - opened) }, (_, i) => `inv_bench_${opened + i}`);
        await database.db.insert(invoices).values(batch.map((id) => ({ id, payer: "bench", priceUsdc: 10_000_000n, expiresAt: expires })));
        await database.db.insert(paymentAddresses).values(
          batch.map((id) => ({
            network: network.network,
            address: forwarderAddress(payTo, invoiceSalt(id)),
            invoiceId: id,
            method: "usdc_base",
            asset: DEVNET_USDC_ADDRESS,
            currency: "USDC",
            decimals: 6,
            payTo,
            salt: invoiceSalt(id),
            factory: FORWARDER_FACTORY,
            amountDue: 10_000_000n,
            exchangeRate: "1",
            confirmations: 2,
            watchUntil: expires,
          })),
        );
        opened += batch.length;
      }
    };
    const effect: AddressEffect = addressPaymentEffect;
    const blocks = createPublicClient({ transport: http(chain.rpcUrl) });
    const nextBlock = async () => {
      const at = await blocks.getBlockNumber({ cacheTime: 0 });
      while ((await blocks.getBlockNumber({ cacheTime: 0 })) === at) await new Promise((r) => setTimeout(r, 50));
    };

    console.log("Payment addresses watched on one network, a block a second (anvil), depth 2:");
    for (const n of [1_000, 10_000]) {
      await openUpTo(n);
      await watchAddresses(database.db, network, { client, effect }); // warm
      let calls = 0;
      let watcherCpu = 0;
      let nodeCpu = 0;
      let wall = 0;
      for (let r = 0; r < ROUNDS; r++) {
        await nextBlock();
        const cpu = process.cpuUsage();
        const node = ownCpuMs(chain.pid);
        const started = performance.now();
        const report = await watchAddresses(database.db, network, { client, effect });
        wall += performance.now() - started;
        const used = process.cpuUsage(cpu);
        watcherCpu += (used.user + used.system) / 1000;
        nodeCpu += ownCpuMs(chain.pid) - node;
        calls += report.rpcCalls;
      }
      const row = `${n.toLocaleString("en-US")} open addresses`;
      const perRound = (v: number) => v / ROUNDS;
      console.log(
        `  ${row}: ${perRound(calls).toFixed(0)} RPC calls a round, watcher CPU ${perRound(watcherCpu).toFixed(0)} ms, node CPU ${perRound(nodeCpu).toFixed(0)} ms, round ${perRound(wall).toFixed(0)} ms (bare route: ${bareCpuMsPerRequest.toFixed(1)} ms CPU a request)`,
      );
      note(table, "RPC calls a round", row, { text: perRound(calls).toFixed(0) });
      note(table, "watcher CPU a round", row, { cpuMs: perRound(watcherCpu), bareCpuMs: bareCpuMsPerRequest });
      note(table, "node CPU a round", row, { times: { p50: perRound(nodeCpu) }, unit: "ms" });
      note(table, "round's wall time", row, { times: { p50: perRound(wall) }, unit: "ms" });
    }

    // A payment among the 10,000: from its block at depth to its invoice paid, the loop running every 2 s.
    let stop = false;
    const loop = (async () => {
      while (!stop) {
        await watchAddresses(database.db, network, { client, effect }).catch(() => undefined);
        await new Promise((r) => setTimeout(r, LOOP_MS));
      }
    })();
    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      const id = `inv_bench_${i * 1_000 + 7}`;
      const to = forwarderAddress(payTo, invoiceSalt(id));
      const wallet = createWalletClient({ account: payer, transport: http(chain.rpcUrl) });
      const hash = await wallet.sendTransaction({
        chain: null,
        to: DEVNET_USDC_ADDRESS,
        data: encodeFunctionData({ abi: DEV_USDC_ABI, functionName: "transfer", args: [to as Address, 10_000_000n] }),
      });
      const receipt = await blocks.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      // Its depth: one block on top.
      while ((await blocks.getBlockNumber({ cacheTime: 0 })) < receipt.blockNumber + 1n) await new Promise((r) => setTimeout(r, 20));
      const deep = performance.now();
      for (;;) {
        const [inv] = await database.db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, id));
        if (inv?.status === "paid") break;
        await new Promise((r) => setTimeout(r, 20));
      }
      delays.push(performance.now() - deep);
    }
    stop = true;
    await loop;
    delays.sort((a, b) => a - b);
    console.log(
      `  a payment among 10,000: its invoice paid ${delays.map((d) => `${d.toFixed(0)} ms`).join(", ")} after its block reached depth (the loop every 2 s)\n`,
    );
    note(
      "Payment addresses: a payment among 10,000, from its block at depth to its invoice paid",
      "PGlite (embedded)",
      "the watcher's loop every 2 s, as on a server",
      {
        times: { p50: delays[1]!, max: delays[2]! },
        unit: "ms",
      },
    );
  } finally {
    await database.close();
    await chain.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
