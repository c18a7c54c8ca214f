import {
  AccountRole,
  address,
  appendTransactionMessageInstruction,
  compileTransaction,
  createTransactionMessage,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  verifySignature,
  type Address,
  type Blockhash,
  type SignatureBytes,
} from "@solana/kit";
import { isWalletAdapterCompatibleStandardWallet } from "@solana/wallet-adapter-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SolanaBurnerWallet } from "./solana-burner";
import { BURNER_WALLET_NAME } from "./burner-wallet-info";
import { memoryStore } from "./testing";

const FEE_PAYER = address("FeePayer11111111111111111111111111111111111");

/** A transaction the burner must sign as an instruction's signer, while someone else pays the fee (as in x402). */
function transaction(signer: Address): Uint8Array {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(FEE_PAYER, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: "11111111111111111111111111111111" as Blockhash, lastValidBlockHeight: 100n }, m),
    (m) =>
      appendTransactionMessageInstruction(
        {
          programAddress: address("11111111111111111111111111111111"),
          accounts: [{ address: signer, role: AccountRole.WRITABLE_SIGNER }],
          data: new Uint8Array([2, 0, 0, 0]),
        },
        m,
      ),
  );
  return new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)));
}

async function connected(store = memoryStore()) {
  const wallet = new SolanaBurnerWallet(() => store);
  const { accounts } = await wallet.features["standard:connect"].connect();
  return { wallet, account: accounts[0]!, store };
}

describe("the Solana burner wallet", () => {
  it("is a wallet the Solana wallet adapter lists", () => {
    const wallet = new SolanaBurnerWallet(memoryStore);
    expect(isWalletAdapterCompatibleStandardWallet(wallet)).toBe(true);
    expect(wallet.name).toBe(BURNER_WALLET_NAME);
    expect(wallet.icon).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it("makes its key on the first connect only (not on a silent one), keeps it, and tells listeners", async () => {
    const store = memoryStore();
    const wallet = new SolanaBurnerWallet(() => store);
    const changes: number[] = [];
    wallet.features["standard:events"].on("change", ({ accounts }) => changes.push(accounts?.length ?? -1));
    expect((await wallet.features["standard:connect"].connect({ silent: true })).accounts).toEqual([]);
    expect(store.size).toBe(0);

    const { accounts } = await wallet.features["standard:connect"].connect();
    expect(accounts).toHaveLength(1);
    const first = accounts[0]!;
    expect(first.chains).toContain("solana:localnet");
    expect(first.features).toEqual(expect.arrayContaining(["solana:signTransaction", "solana:signMessage"]));
    await wallet.features["standard:disconnect"].disconnect();
    expect(wallet.accounts).toEqual([]);
    expect(changes).toEqual([1, 0]);

    const again = new SolanaBurnerWallet(() => store);
    const { accounts: later } = await again.features["standard:connect"].connect({ silent: true });
    expect(later[0]?.address).toBe(first.address);
    expect(Array.from(later[0]!.publicKey)).toEqual(Array.from(first.publicKey));
  });

  it("signs messages with its Ed25519 key", async () => {
    const { wallet, account } = await connected();
    const message = new TextEncoder().encode("localhost wants you to sign in with your Solana account");
    const [out] = await wallet.features["solana:signMessage"].signMessage({ account, message });
    const key = await getPublicKeyFromAddress(account.address as Address);
    expect(await verifySignature(key, out!.signature as SignatureBytes, message)).toBe(true);
  });

  it("signs its part of a transaction and leaves the fee payer's signature to the facilitator", async () => {
    const { wallet, account } = await connected();
    const [out] = await wallet.features["solana:signTransaction"].signTransaction({ account, transaction: transaction(account.address as Address) });
    const signed = getTransactionDecoder().decode(out!.signedTransaction);
    expect(signed.signatures[FEE_PAYER]).toBeNull();
    const signature = signed.signatures[account.address as Address];
    expect(signature).toBeInstanceOf(Uint8Array);
    const key = await getPublicKeyFromAddress(account.address as Address);
    expect(await verifySignature(key, signature!, signed.messageBytes)).toBe(true);
  });

  it("refuses a transaction that does not need its signature, and any request for another account", async () => {
    const { wallet, account } = await connected();
    const { account: stranger } = await connected();
    await expect(
      wallet.features["solana:signTransaction"].signTransaction({ account, transaction: transaction(stranger.address as Address) }),
    ).rejects.toThrow();
    await expect(wallet.features["solana:signMessage"].signMessage({ account: stranger, message: new Uint8Array([1]) })).rejects.toThrow(/not connected/);
  });
});

describe("registering the Solana burner", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  async function registrations(mode: "devnet" | "testnet" | "mainnet") {
    vi.stubGlobal("window", new EventTarget());
    const registered: { name: string }[] = [];
    window.addEventListener("wallet-standard:register-wallet", (event) =>
      (event as unknown as { detail: (api: { register: (w: { name: string }) => void }) => void }).detail({ register: (w) => void registered.push(w) }),
    );
    const { registerSolanaBurner } = await import("./solana-burner");
    registerSolanaBurner({ mode });
    registerSolanaBurner({ mode });
    return registered.map((w) => w.name);
  }

  it("offers it to the page once, in devnet mode", async () => {
    expect(await registrations("devnet")).toEqual([BURNER_WALLET_NAME]);
  });

  it("never in testnet or mainnet mode", async () => {
    expect(await registrations("testnet")).toEqual([]);
    expect(await registrations("mainnet")).toEqual([]);
  });
});
