import dc from "node:diagnostics_channel";

/** The header the server writes the socket's address into; whatever a client sent under this name is replaced. */
export const PEER_HEADER = "x-storefront-peer";

let installed = false;

/**
 * Writes each request's socket address (the machine that connected) into PEER_HEADER before Next.js sees the
 * request, through Node's `http.server.request.start` diagnostics channel: the one address a client cannot choose
 * when no proxy stands in front. Installed once per process at start-up (instrumentation.ts).
 */
export function installPeerAddress(): void {
  if (installed) return;
  installed = true;
  dc.subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: { headers: Record<string, string | string[] | undefined> }; socket: { remoteAddress?: string } };
    request.headers[PEER_HEADER] = socket.remoteAddress ?? "";
  });
}

/** Whether this process writes PEER_HEADER (a server started by instrumentation.ts; not a serverless function). */
export function peerAddressInstalled(): boolean {
  return installed;
}
