import { PHASE_DEVELOPMENT_SERVER } from "next/constants.js";

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // A self-contained server in .next/standalone (server.js with only the files it needs): the Docker image runs it.
  output: "standalone",
  poweredByHeader: false,
  // `npm run dev`'s warm-up compiles the checkout's pages by requesting them (scripts/dev.mjs) with `dev-warm-up` in
  // the query: its answers (a 404 for the example invoice) are not the developer's requests, and stay out of the log.
  logging: { incomingRequests: { ignore: [/[?&]dev-warm-up=/] } },
  // proxy.ts sees the URL as the server received it (its origin the one the router resolves rewrites against): its
  // rewrites under /api/v2 then stay inside the server, with the headers it set, instead of going out again as a
  // request of their own. There is no Pages Router, whose data URLs the normalisation was for.
  skipProxyUrlNormalize: true,
  // proxy.ts buffers request bodies for the handlers: never more than one byte past the largest body the shop takes
  // (lib/platform/http/edge-guard.ts MAX_BODY_BYTES), so that a longer body sent without Content-Length is still seen as too long.
  experimental: {
    proxyClientMaxBodySize: 64 * 1024 + 1,
    // A CI build starts from a clean clone and nothing reads its cache afterwards: writing it is time lost (~40 s).
    turbopackFileSystemCacheForBuild: !process.env.CI,
  },
  // `npm test` type-checks the whole project (npm run typecheck) before its build: the build does not do it again.
  typescript: { ignoreBuildErrors: process.env.STOREFRONT_TYPECHECKED === "1" },
  // PGlite loads its WebAssembly and data files from its own package folder at run time,
  // and node-postgres has optional native bindings: they stay outside the server bundle, and so do pino and
  // prom-client (one registry for every route).
  serverExternalPackages: ["@electric-sql/pglite", "pg", "litesvm", "pino", "prom-client"],
  // Migrations are read from disk at start; make sure they ship with the traced server output.
  outputFileTracingIncludes: {
    "/**": ["./lib/platform/db/migrations/**/*"],
  },
  // The merchant dashboard is never framed (no clickjacking of its buttons) and sends no full URL to other sites.
  async headers() {
    return [
      {
        source: "/dashboard/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

/**
 * `next dev` takes Next.js's default proxy body buffer (10 MB) instead of the experiment above, which it would announce
 * under the shop's framed block at every start: the answers are the same, since the handlers' readers cut a body at
 * MAX_BODY_BYTES themselves (lib/platform/http/body.ts); only a development server holds more of a too-long body.
 */
export default function config(phase) {
  if (phase !== PHASE_DEVELOPMENT_SERVER) return nextConfig;
  // (Nor the build's own option, which next dev would list as an experiment too where it differs from the default: CI.)
  const experimental = { ...nextConfig.experimental };
  delete experimental.proxyClientMaxBodySize;
  delete experimental.turbopackFileSystemCacheForBuild;
  return { ...nextConfig, experimental };
}
