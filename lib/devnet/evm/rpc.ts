/** A minimal JSON-RPC call for anvil's own methods (anvil_setCode, anvil_setBalance, ...). */
export async function anvilRpc<T = unknown>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  if (!res.ok) throw new Error(`${method} on ${rpcUrl}: HTTP ${res.status}`);
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string } };
  if (body.error) throw new Error(`${method} on ${rpcUrl}: ${body.error.message} (${body.error.code})`);
  return body.result as T;
}
