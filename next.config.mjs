/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // PGlite loads its WebAssembly and data files from its own package folder at run time,
  // and node-postgres has optional native bindings: both stay outside the server bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "litesvm"],
  // Migrations are read from disk at start; make sure they ship with the traced server output.
  outputFileTracingIncludes: {
    "/**": ["./lib/db/migrations/**/*"],
  },
};

export default nextConfig;
