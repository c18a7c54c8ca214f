import { headers } from "next/headers";
import { publicOriginFrom } from "./origin";

/** The shop's public origin for this request, in a server component or action (PUBLIC_ORIGIN, else the Host the browser used). */
export async function requestOrigin(): Promise<string> {
  return publicOriginFrom(await headers());
}
