import { config } from "@/lib/config";
import { getDevnet } from "@/lib/devnet";
import { jsonResponse } from "@/lib/http/api-error";

export const dynamic = "force-dynamic";

/** The local chains of devnet mode: networks, RPC URLs and the USDC token on each. 404 in other modes. */
export async function GET() {
  if (config().networkMode !== "devnet") return jsonResponse({ code: "NOT_FOUND", message: "Not found" }, { status: 404 });
  const devnet = await getDevnet();
  return jsonResponse({
    networks: devnet.networks.map((n) =>
      n.kind === "evm"
        ? { network: n.network, name: n.name, rpcUrl: n.rpcUrl, usdc: { address: n.usdc.address, name: n.usdc.name, version: n.usdc.version, decimals: n.usdc.decimals } }
        : { network: n.network, name: n.name, rpcUrl: n.rpcUrl, usdc: { mint: n.usdc.mint, decimals: n.usdc.decimals } },
    ),
  });
}
