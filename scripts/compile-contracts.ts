// Compiles the devnet contracts (lib/devnet/contracts/*.sol) with the solc npm package (wasm, offline) and writes
// lib/devnet/contracts/artifacts.json: { <Contract>: { abi, deployedBytecode } }. The artifact is committed; the app
// never compiles at run time. Run after editing a contract: `npx tsx scripts/compile-contracts.ts`.
import fs from "node:fs";
import path from "node:path";
import solc from "solc";

const CONTRACTS = ["DevUSDC", "Multicall3", "TestSmartWallet"] as const;
const dir = path.join(process.cwd(), "lib", "devnet", "contracts");
const out = path.join(dir, "artifacts.json");

type SolcOutput = {
  errors?: { severity: "error" | "warning" | "info"; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { deployedBytecode: { object: string } } }>>;
};

function main() {
  const sources = Object.fromEntries(CONTRACTS.map((name) => [`${name}.sol`, { content: fs.readFileSync(path.join(dir, `${name}.sol`), "utf8") }]));
  const input = {
    language: "Solidity",
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // Cancun runs on anvil's default (latest) hardfork and on older `--hardfork cancun` setups alike.
      evmVersion: "cancun",
      // No metadata hash: the bytecode only changes when the source does.
      metadata: { bytecodeHash: "none", appendCBOR: false },
      outputSelection: { "*": { "*": ["abi", "evm.deployedBytecode.object"] } },
    },
  };
  const started = Date.now();
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const problems = output.errors ?? [];
  for (const p of problems.filter((p) => p.severity !== "info")) console.error(p.formattedMessage);
  if (problems.some((p) => p.severity === "error")) {
    process.exitCode = 1;
    return;
  }

  const artifacts: Record<string, { abi: unknown[]; deployedBytecode: string }> = {};
  for (const name of CONTRACTS) {
    const c = output.contracts?.[`${name}.sol`]?.[name];
    if (!c || !c.evm.deployedBytecode.object) throw new Error(`solc produced no runtime code for ${name}`);
    artifacts[name] = { abi: c.abi, deployedBytecode: `0x${c.evm.deployedBytecode.object}` };
  }
  fs.writeFileSync(out, `${JSON.stringify(artifacts, null, 2)}\n`);
  const sizes = CONTRACTS.map((n) => `${n} ${((artifacts[n]?.deployedBytecode.length ?? 2) - 2) / 2} bytes`).join(", ");
  console.log(`solc ${solc.version()}: ${sizes} -> ${path.relative(process.cwd(), out)} (${Date.now() - started} ms)`);
}

main();
