import { describe, expect, it } from "vitest";
import { devnetPackagesError } from "./load";

const notFound = (message: string) => Object.assign(new Error(message), { code: "MODULE_NOT_FOUND" });

describe("devnet packages missing", () => {
  it("names the packages and the way out when litesvm or anvil is not installed", () => {
    for (const err of [
      notFound("Cannot find module 'litesvm'\nRequire stack:\n- /app/.next/server/chunks/x.js"),
      Object.assign(new Error("Cannot find package '@foundry-rs/anvil' imported from /app/x.js"), { code: "ERR_MODULE_NOT_FOUND" }),
      new Error("Cannot find native binding. npm has a bug related to optional dependencies"),
      // The server bundle's loader names the package under an alias of its own.
      new Error(
        "Failed to load external module litesvm-eb0bc884d4ea9e8f: Error: Cannot find module 'litesvm-eb0bc884d4ea9e8f'\nRequire stack:\n- /app/server.js",
      ),
    ]) {
      const clear = devnetPackagesError(err);
      expect(clear?.message).toMatch(/^NETWORK_MODE=devnet needs the packages litesvm and @foundry-rs\/anvil/);
      expect(clear?.message).toMatch(/NETWORK_MODE=testnet or mainnet/);
      expect(clear?.message).not.toMatch(/Require stack/);
      expect(clear?.cause).toBe(err);
    }
  });

  it("leaves other errors as they are", () => {
    expect(devnetPackagesError(new Error("boom"))).toBeUndefined();
    expect(devnetPackagesError(notFound("Cannot find module 'viem'"))).toBeUndefined();
  });
});
