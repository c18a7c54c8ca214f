import { HttpRequestError } from "viem";
import { describe, expect, it } from "vitest";
import { errorText, redactUrls } from "./errors";

describe("redactUrls", () => {
  it("cuts every URL to its scheme and host name: no credentials, port, path, query or fragment", () => {
    expect(redactUrls("URL: https://base-mainnet.g.example.com/v2/SECRETKEY?x=1#y failed")).toBe("URL: https://base-mainnet.g.example.com failed");
    expect(redactUrls("postgres://shop:hunter2@db.internal:5432/storefront?sslmode=require")).toBe("postgres://db.internal");
    expect(redactUrls("wss://rpc.example/ws/KEY and http://127.0.0.1:8545/v2/KEY")).toBe("wss://rpc.example and http://127.0.0.1");
    expect(redactUrls("see http://[::1]:9000/token/KEY now")).toBe("see http://[::1] now");
    // A password that holds what should have been escaped still does not show.
    expect(redactUrls("postgres://u:p/a?s'#s@db/x")).toBe("postgres://db");
    // In a JSON line: the URL ends at the string's quote or an escape.
    expect(redactUrls(String.raw`{"msg":"URL: https://h.example/v2/KEY\nDetails: x","url":"https://h.example/v2/KEY"}`)).toBe(
      String.raw`{"msg":"URL: https://h.example\nDetails: x","url":"https://h.example"}`,
    );
  });

  it("leaves text without URLs, and files' URLs (stack traces), as they are", () => {
    expect(redactUrls("connect ECONNREFUSED 127.0.0.1:5432")).toBe("connect ECONNREFUSED 127.0.0.1:5432");
    expect(redactUrls("at f (file:///app/x.js:1:2)")).toBe("at f (file:///app/x.js:1:2)");
  });
});

describe("errorText", () => {
  it("gives viem's HTTP error without its URL's key and without the request body", () => {
    const err = new HttpRequestError({
      url: "https://rpc.example.com/v2/SECRETKEY",
      status: 429,
      body: { method: "eth_getBalance", params: ["0xabc", "latest"] },
      details: "Too Many Requests",
    });
    expect(err.message).toContain("SECRETKEY");
    const text = errorText(err);
    expect(text).not.toContain("SECRETKEY");
    expect(text).not.toContain("eth_getBalance");
    expect(text).toContain("Status: 429");
    expect(text).toContain("URL: https://rpc.example.com");
  });

  it("takes anything thrown", () => {
    expect(errorText("boom at https://u:p@h.example/p")).toBe("boom at https://h.example");
  });
});
