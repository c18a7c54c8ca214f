// Runs once when the server starts (next dev, next start, the standalone server, a Vercel function's cold start):
// check the configuration and open, migrate and seed the database before the first request, so that a bad setting
// stops start-up with a clear message.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installPeerAddress } = await import("./lib/http/peer-address");
  installPeerAddress();
  const { startServer } = await import("./lib/server/start");
  await startServer();
}
