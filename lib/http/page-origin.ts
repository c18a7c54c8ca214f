import { headers } from "next/headers";
import { publicOrigin } from "./origin";

/** The public origin for a server-rendered page, from the request's headers (as `publicOrigin` reads them). */
export async function pageOrigin(): Promise<string> {
  const h = await headers();
  return publicOrigin(new Request(`http://${h.get("host") ?? "localhost"}/`, { headers: h }));
}
