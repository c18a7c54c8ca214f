// The baseline of `npm run bench`: a bare Next.js app with one route handler, built and started by the benchmark
// itself, so that the shop's figures are read beside what this machine's Next.js does with no work at all.
/** @type {import('next').NextConfig} */
const nextConfig = { poweredByHeader: false };

export default nextConfig;
