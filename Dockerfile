# syntax=docker/dockerfile:1
# The shop as one image: the standalone server (next.config.mjs output: "standalone") on Node 20, run as a non-root
# user, with production dependencies only. For testnet/mainnet: the devnet's local chains are not in the image.
#   docker build -t x402-storefront .
#   docker run -p 3000:3000 --env-file .env --stop-timeout 30 x402-storefront   (or docker compose up)

# Install and build on the full Debian image: it has python3, make and g++ for the native addons that ship no build for
# every platform (bufferutil and utf-8-validate have none for linux/arm64). The runtime image needs none of them.
FROM node:20-bookworm AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM node:20-bookworm AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
# Builds .next/standalone: server.js, the traced production dependencies, the migrations, static assets and public/.
# The devnet's chains (anvil, litesvm) load only in devnet mode, which this image does not run.
RUN npm run build && node scripts/standalone-prune.mjs .next/standalone

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    # The shop stops in its own order on SIGTERM (new payments refused, settlements in flight finished, then workers),
    # within 25 s: give it more than Docker's default 10 s (docker run --stop-timeout 30; compose: stop_grace_period).
    NEXT_MANUAL_SIG_HANDLE=true \
    PORT=3000 \
    # Docker sets HOSTNAME to the container id; the server listens on HOSTNAME.
    HOSTNAME=0.0.0.0 \
    # Idle keep-alive connections outlive a load balancer's (60 s on most), so the server never closes one that the
    # balancer is about to reuse.
    KEEP_ALIVE_TIMEOUT=65000 \
    # The heap's ceiling and young generation, as npm start sets them (ARCHITECTURE.md, "Memory"): without a ceiling Node.js
    # lets the heap grow with the machine's memory long before it collects; 512 MB leaves room for two 20 MB imports
    # beside the load, and a 4 MB semi-space keeps short-lived objects from holding 48 MB.
    NODE_OPTIONS="--max-old-space-size=512 --max-semi-space-size=4" \
    # glibc's malloc threshold held at 1 MB: left to itself glibc raises it, and its trim threshold with it, after a
    # burst of requests and keeps 40 to 60 MB of freed memory resident for good; the trim threshold at 4 MB, so that
    # a request's freed buffers are not given back to the kernel and taken again by the next (ARCHITECTURE.md, "Memory").
    MALLOC_MMAP_THRESHOLD_=1048576 \
    MALLOC_TRIM_THRESHOLD_=4194304 \
    DATA_DIR=/data
RUN groupadd --system --gid 1001 shop && useradd --system --uid 1001 --gid shop --home /app shop \
 && mkdir -p /data && chown shop:shop /data
# Owned by the server's user: Next.js writes its image cache under .next/cache.
COPY --from=build --chown=shop:shop /app/.next/standalone ./
USER shop
EXPOSE 3000
# Liveness: the process serves. Deploy checks ask for readiness: GET /api/health?ready=1.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.js"]
