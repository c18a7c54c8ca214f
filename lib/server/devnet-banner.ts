import path from "node:path";

/** Where the devnet keeps the admin token it generated (lib/merchants/admin-token.ts). */
export const adminTokenFile = (dataDir: string) => path.join(dataDir, "secrets", "admin-token");

/** A path under the working directory as a relative one (.data/secrets/admin-token), any other as it is. */
function shortPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

/** The shop's address as Next.js printed it ("Local:"), else on localhost. */
export function shopOrigin(port: number, env: Record<string, string | undefined> = process.env): string {
  const origin = env.__NEXT_PRIVATE_ORIGIN;
  return origin && URL.canParse(origin) ? new URL(origin).origin : `http://localhost:${port}`;
}

/**
 * What a person starting a devnet shop looks for, framed on plain lines of its own among the JSON log lines: where the
 * shop is, where a merchant starts, and the generated admin token (none when ADMIN_TOKEN is set: the operator has it).
 */
export function devnetBanner({ url, adminToken, dataDir }: { url: string; adminToken: string | undefined; dataDir: string }): string {
  const lines = [
    `Storefront devnet shop:  ${url}`,
    `Merchant dashboard:      ${url}/dashboard/sign-in  ("Create a demo merchant" there)`,
    ...(adminToken
      ? [
          `Admin token:             ${adminToken}`,
          `  the operator's Bearer token for npm run admin, /api/admin and ${url}/operator;`,
          `  generated for this devnet and kept in ${shortPath(adminTokenFile(dataDir))}`,
        ]
      : ["Admin token:             the one set in ADMIN_TOKEN"]),
  ];
  const rule = "=".repeat(Math.min(100, Math.max(...lines.map((l) => l.length)) + 2));
  return ["", rule, ...lines.map((l) => ` ${l}`), rule, ""].join("\n");
}
