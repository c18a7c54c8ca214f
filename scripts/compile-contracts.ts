// Compiles the project's contracts with the solc npm package (wasm, offline) and writes an artifacts.json beside each
// group: { <Contract>: { abi, deployedBytecode, bytecode? } }. The devnet's contracts (lib/devnet/contracts) are placed
// by their runtime code; the payment forwarders (lib/payments/contracts) are deployed on real networks, so their
// creation code is kept too (it decides their CREATE2 addresses). The artifacts are committed; the app never compiles
// at run time. Run after editing a contract: `npx tsx scripts/compile-contracts.ts`.
import fs from "node:fs";
import path from "node:path";
import solc from "solc";

const GROUPS = [
  {
    dir: path.join("lib", "devnet", "contracts"),
    contracts: { DevUSDC: "DevUSDC.sol", Multicall3: "Multicall3.sol", TestSmartWallet: "TestSmartWallet.sol" },
    creation: false,
  },
  { dir: path.join("lib", "payments", "contracts"), contracts: { Forwarder: "Forwarder.sol", ForwarderFactory: "Forwarder.sol" }, creation: true },
] as const;

type SolcOutput = {
  errors?: { severity: "error" | "warning" | "info"; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
};

function compile(group: (typeof GROUPS)[number]): boolean {
  const dir = path.join(process.cwd(), group.dir);
  const out = path.join(dir, "artifacts.json");
  const files = [...new Set(Object.values(group.contracts))];
  const sources = Object.fromEntries(files.map((file) => [file, { content: fs.readFileSync(path.join(dir, file), "utf8") }]));
  const input = {
    language: "Solidity",
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // Cancun runs on anvil's default (latest) hardfork and on older `--hardfork cancun` setups alike.
      evmVersion: "cancun",
      // No metadata hash: the bytecode only changes when the source does.
      metadata: { bytecodeHash: "none", appendCBOR: false },
      outputSelection: { "*": { "*": ["abi", "evm.deployedBytecode.object", ...(group.creation ? ["evm.bytecode.object"] : [])] } },
    },
  };
  const started = Date.now();
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const problems = output.errors ?? [];
  for (const p of problems.filter((p) => p.severity !== "info")) console.error(p.formattedMessage);
  if (problems.some((p) => p.severity === "error")) return false;

  const artifacts: Record<string, { abi: unknown[]; deployedBytecode: string; bytecode?: string }> = {};
  for (const [name, file] of Object.entries(group.contracts)) {
    const c = output.contracts?.[file]?.[name];
    if (!c || !c.evm.deployedBytecode.object) throw new Error(`solc produced no runtime code for ${name}`);
    artifacts[name] = {
      abi: c.abi,
      deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      ...(group.creation ? { bytecode: `0x${c.evm.bytecode.object}` } : {}),
    };
  }
  fs.writeFileSync(out, `${JSON.stringify(artifacts, null, 2)}\n`);
  const sizes = Object.keys(group.contracts)
    .map((n) => `${n} ${((artifacts[n]?.deployedBytecode.length ?? 2) - 2) / 2} bytes`)
    .join(", ");
  console.log(`solc ${solc.version()}: ${sizes} -> ${path.relative(process.cwd(), out)} (${Date.now() - started} ms)`);
  return true;
}

for (const group of GROUPS) if (!compile(group)) process.exitCode = 1;
