import type { Page } from "@playwright/test";
import { getAddressEncoder, getTransactionDecoder, getTransactionEncoder, partiallySignTransaction, signBytes, type KeyPairSigner } from "@solana/kit";

export type SolanaTestWallet = {
  signer: KeyPairSigner;
  /** What the page asked the wallet, in order (feature names). */
  calls: string[];
  /** The next signature request is refused as a user would. */
  rejectNextSignature(): void;
};

type Request = { feature: "connect" | "signMessage" | "signTransaction"; bytes?: string };
type Answer = { bytes?: string; signature?: string; error?: string };

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const fromB64 = (text: string) => new Uint8Array(Buffer.from(text, "base64"));

/**
 * A Wallet Standard Solana wallet registered in the page, as a browser extension (Phantom, Solflare, …) registers
 * itself. The page holds only the Wallet Standard surface: each signature request crosses to the test process, where
 * the keypair signs the message, or the transaction's bytes as the page sent them.
 */
export async function installSolanaTestWallet(page: Page, signer: KeyPairSigner): Promise<SolanaTestWallet> {
  let reject = false;
  const calls: string[] = [];
  const decoder = getTransactionDecoder();
  const encoder = getTransactionEncoder();

  await page.exposeBinding("__solanaTestWallet", async (_source, req: Request): Promise<Answer> => {
    calls.push(req.feature);
    if (req.feature !== "connect" && reject) {
      reject = false;
      return { error: "User rejected the request." };
    }
    switch (req.feature) {
      case "connect":
        return {};
      case "signMessage":
        return { signature: b64(new Uint8Array(await signBytes(signer.keyPair.privateKey, fromB64(req.bytes!)))) };
      case "signTransaction": {
        // The transaction is the buyer's transfer with the facilitator as fee payer: the wallet adds its signature only.
        const signed = await partiallySignTransaction([signer.keyPair], decoder.decode(fromB64(req.bytes!)));
        return { bytes: b64(new Uint8Array(encoder.encode(signed))) };
      }
    }
  });

  const publicKey = Array.from(getAddressEncoder().encode(signer.address));
  await page.addInitScript(
    ({ address, publicKey }) => {
      type Listener = (props: { accounts?: readonly unknown[] }) => void;
      const bridge = (window as unknown as { __solanaTestWallet: (req: unknown) => Promise<{ bytes?: string; signature?: string; error?: string }> })
        .__solanaTestWallet;
      const toB64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
      const fromB64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
      const call = async (req: { feature: string; bytes?: Uint8Array }) => {
        const answer = await bridge({ feature: req.feature, ...(req.bytes ? { bytes: toB64(req.bytes) } : {}) });
        if (answer.error) throw Object.assign(new Error(answer.error), { code: 4001 });
        return answer;
      };

      const chains = ["solana:localnet", "solana:devnet"] as const;
      const account = Object.freeze({
        address,
        publicKey: new Uint8Array(publicKey),
        chains,
        features: ["solana:signTransaction", "solana:signMessage"],
        label: "Test account",
      });
      let accounts: (typeof account)[] = [];
      const listeners = new Set<Listener>();
      const changed = () => listeners.forEach((l) => l({ accounts }));
      const icon =
        "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='8' fill='%237c3aed'/%3E%3C/svg%3E";

      const wallet = {
        version: "1.0.0",
        name: "Solana Test Wallet",
        icon,
        chains,
        get accounts() {
          return accounts;
        },
        features: {
          "standard:connect": {
            version: "1.0.0",
            async connect(input?: { silent?: boolean }) {
              // A silent (auto) connect only succeeds once the user has connected before, as in extensions.
              if (!input?.silent && accounts.length === 0) {
                await call({ feature: "connect" });
                accounts = [account];
                changed();
              }
              return { accounts };
            },
          },
          "standard:disconnect": {
            version: "1.0.0",
            async disconnect() {
              accounts = [];
              changed();
            },
          },
          "standard:events": {
            version: "1.0.0",
            on(event: string, listener: Listener) {
              if (event !== "change") return () => undefined;
              listeners.add(listener);
              return () => listeners.delete(listener);
            },
          },
          "solana:signMessage": {
            version: "1.0.0",
            async signMessage(...inputs: { message: Uint8Array }[]) {
              const out = [];
              for (const input of inputs) {
                const { signature } = await call({ feature: "signMessage", bytes: input.message });
                out.push({ signedMessage: input.message, signature: fromB64(signature!) });
              }
              return out;
            },
          },
          "solana:signTransaction": {
            version: "1.0.0",
            supportedTransactionVersions: ["legacy", 0],
            async signTransaction(...inputs: { transaction: Uint8Array }[]) {
              const out = [];
              for (const input of inputs) {
                const { bytes } = await call({ feature: "signTransaction", bytes: input.transaction });
                out.push({ signedTransaction: fromB64(bytes!) });
              }
              return out;
            },
          },
        },
      };

      // The Wallet Standard registration handshake, both ways round (the app may load before or after the wallet).
      const register = ({ register }: { register: (w: unknown) => unknown }) => register(wallet);
      try {
        window.dispatchEvent(new CustomEvent("wallet-standard:register-wallet", { detail: register }));
      } catch (err) {
        console.warn("could not announce the test wallet", err);
      }
      window.addEventListener("wallet-standard:app-ready", (e) => register((e as CustomEvent<{ register: (w: unknown) => unknown }>).detail));
    },
    { address: signer.address, publicKey },
  );

  return { signer, calls, rejectNextSignature: () => void (reject = true) };
}
