// Runs once when the server starts (next dev and next start): check the configuration and open, migrate
// and seed the database before the first request, so that a bad setting stops start-up with a clear message.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("./lib/server/start");
  await startServer();
}
