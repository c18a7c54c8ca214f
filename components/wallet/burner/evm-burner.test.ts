import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, defineChain, http, recoverMessageAddress, recoverTypedDataAddress, stringify, toHex, type Address, type Chain } from "viem";
import { createConfig, createStorage } from "wagmi";
import { connect, disconnect, getAccount, reconnect, signMessage, signTypedData, switchChain } from "wagmi/actions";
import { burnerConnector, createBurnerEvmProvider } from "./evm-burner";
import { memoryStore } from "./testing";
import { startEvmChain } from "@/lib/devnet/evm";
import { anvilRpc } from "@/lib/devnet/evm/rpc";

// A JSON-RPC node that knows one method, to see reads forwarded to the current chain's RPC URL.
let node: Server;
const seen: { chain: string; method: string }[] = [];
let chains: [Chain, ...Chain[]];

beforeAll(async () => {
  node = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      seen.push({ chain: req.url ?? "", method });
      res.setHeader("Content-Type", "application/json");
      res.end(
        JSON.stringify(method === "eth_blockNumber" ? { jsonrpc: "2.0", id, result: "0x2a" } : { jsonrpc: "2.0", id, error: { code: -32601, message: "no" } }),
      );
    });
  });
  await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
  const chain = (id: number, name: string) =>
    defineChain({ id, name, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [`${url}/${id}`] } } });
  chains = [chain(84_530_402, "Base (devnet)"), chain(421_610_402, "Arbitrum (devnet)")];
});
afterAll(() => new Promise<void>((resolve) => node.close(() => resolve())));

const typedData = {
  domain: { name: "USD Coin", version: "2", chainId: 84_530_402, verifyingContract: "0x4020000000000000000000000000000000005dc0" as Address },
  types: {
    TransferWithAuthorization: [
      { name: "from", type: "address" },
      { name: "to", type: "address" },
      { name: "value", type: "uint256" },
      { name: "validAfter", type: "uint256" },
      { name: "validBefore", type: "uint256" },
      { name: "nonce", type: "bytes32" },
    ],
  },
  primaryType: "TransferWithAuthorization" as const,
  message: {
    from: "0x0000000000000000000000000000000000000001" as Address,
    to: "0x0000000000000000000000000000000000000002" as Address,
    value: 10_000_000n,
    validAfter: 0n,
    validBefore: 2_000_000_000n,
    nonce: toHex(7, { size: 32 }),
  },
};

describe("the EVM burner's provider", () => {
  it("has no account until connected, then keeps the same key in its store", async () => {
    const store = memoryStore();
    const provider = createBurnerEvmProvider({ chains, store: () => store });
    expect(await provider.request({ method: "eth_accounts" })).toEqual([]);
    expect(store.size).toBe(0);
    const [address] = (await provider.request({ method: "eth_requestAccounts" })) as Address[];
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(await provider.request({ method: "eth_accounts" })).toEqual([address]);

    const later = createBurnerEvmProvider({ chains, store: () => store });
    expect(await later.request({ method: "eth_accounts" })).toEqual([address]);
    const other = createBurnerEvmProvider({ chains, store: () => memoryStore() });
    expect(await other.request({ method: "eth_requestAccounts" })).not.toEqual([address]);
  });

  it("signs messages and EIP-712 typed data (as viem sends them) with its key, and nothing for another address", async () => {
    const provider = createBurnerEvmProvider({ chains, store: memoryStore });
    const [address] = (await provider.request({ method: "eth_requestAccounts" })) as [Address];
    const message = toHex("Sign in to the shop");
    const signature = (await provider.request({ method: "personal_sign", params: [message, address] })) as `0x${string}`;
    expect(await recoverMessageAddress({ message: { raw: message }, signature })).toBe(address);

    const json = stringify({ ...typedData, types: { EIP712Domain: [{ name: "name", type: "string" }], ...typedData.types } });
    const typedSignature = (await provider.request({ method: "eth_signTypedData_v4", params: [address.toLowerCase(), json] })) as `0x${string}`;
    expect(await recoverTypedDataAddress({ ...typedData, signature: typedSignature })).toBe(address);

    const stranger = "0x000000000000000000000000000000000000dEaD";
    await expect(provider.request({ method: "personal_sign", params: [message, stranger] })).rejects.toMatchObject({ code: 4100 });
    await expect(provider.request({ method: "eth_sendTransaction", params: [{ from: stranger, to: address }] })).rejects.toMatchObject({ code: 4100 });
    await expect(provider.request({ method: "eth_signTransaction", params: [{ from: address }] })).rejects.toMatchObject({ code: 4200 });
  });

  it("switches among the configured chains only, and reads from the current chain's RPC", async () => {
    const changes: number[] = [];
    const provider = createBurnerEvmProvider({ chains, store: memoryStore, onChainChanged: (id) => changes.push(id) });
    expect(await provider.request({ method: "eth_chainId" })).toBe(toHex(chains[0].id));
    await provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: toHex(421_610_402) }] });
    expect(provider.chainId).toBe(421_610_402);
    expect(changes).toEqual([421_610_402]);
    await expect(provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: toHex(1) }] })).rejects.toMatchObject({ code: 4902 });
    expect(provider.chainId).toBe(421_610_402);

    seen.length = 0;
    expect(await provider.request({ method: "eth_blockNumber" })).toBe("0x2a");
    expect(seen).toEqual([{ chain: "/421610402", method: "eth_blockNumber" }]);
  });
});

describe("the EVM burner's plain transfers", () => {
  it("signs a transfer with its key and sends it to the current chain, which mines it (anvil)", { timeout: 30_000 }, async () => {
    const anvil = await startEvmChain({ chainId: 84_530_402, name: "Base (devnet)", usdcAddress: "0x4020000000000000000000000000000000005dc0" });
    try {
      const chain = defineChain({
        id: anvil.chainId,
        name: anvil.name,
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
        rpcUrls: { default: { http: [anvil.rpcUrl] } },
      });
      const provider = createBurnerEvmProvider({ chains: [chain], store: memoryStore });
      const [address] = (await provider.request({ method: "eth_requestAccounts" })) as [Address];
      await anvilRpc(anvil.rpcUrl, "anvil_setBalance", [address, toHex(10n ** 18n)]);
      const to = "0x000000000000000000000000000000000000bEEF";
      const hash = (await provider.request({ method: "eth_sendTransaction", params: [{ from: address, to, value: toHex(12_345n) }] })) as `0x${string}`;
      const client = createPublicClient({ chain, transport: http(anvil.rpcUrl) });
      expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe("success");
      expect(await client.getBalance({ address: to })).toBe(12_345n);
    } finally {
      await anvil.stop();
    }
  });
});

describe("the EVM burner as a wagmi connector", () => {
  const wagmiStorage = () => {
    const items = memoryStore();
    return createStorage({ storage: { getItem: items.getItem, setItem: items.setItem, removeItem: items.removeItem } });
  };

  it("connects, signs through wagmi's actions, switches chain, reconnects until disconnected", async () => {
    const keys = memoryStore();
    const storage = wagmiStorage();
    const makeConfig = () =>
      createConfig({
        chains,
        connectors: [burnerConnector(() => keys)],
        transports: Object.fromEntries(chains.map((c) => [c.id, http(c.rpcUrls.default.http[0])])),
        storage,
      });
    const config = makeConfig();
    const connector = config.connectors[0]!;
    expect(await connector.isAuthorized()).toBe(false);

    const { accounts } = await connect(config, { connector });
    const address = accounts[0]!;
    const signature = await signMessage(config, { message: "hello" });
    expect(await recoverMessageAddress({ message: "hello", signature })).toBe(address);

    await switchChain(config, { chainId: 421_610_402 });
    expect(getAccount(config).chainId).toBe(421_610_402);
    const typed = { ...typedData, domain: { ...typedData.domain, chainId: 421_610_402 } };
    const typedSignature = await signTypedData(config, typed);
    expect(await recoverTypedDataAddress({ ...typed, signature: typedSignature })).toBe(address);

    // A new page: the same wallet comes back without asking.
    const next = makeConfig();
    await reconnect(next);
    expect(getAccount(next)).toMatchObject({ status: "connected", address });

    await disconnect(next);
    const after = makeConfig();
    await reconnect(after);
    expect(getAccount(after).status).toBe("disconnected");
  });
});
