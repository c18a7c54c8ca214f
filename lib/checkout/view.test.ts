import { describe, expect, it } from "vitest";
import type { InvoiceRow } from "./payment";
import { canSeeCodes } from "./view";

const payer = "0x1111111111111111111111111111111111111111";
const other = "0x2222222222222222222222222222222222222222";
const now = new Date("2026-11-25T12:00:00Z");
const invoice = (status: InvoiceRow["status"]) => ({ status, payer: `eip155:${payer}`, expiresAt: new Date(now.getTime() + 60_000) }) as InvoiceRow;
const wallet = (address: string, chainId = "eip155:8453") => ({ chainId, address });

describe("who may read an invoice's codes", () => {
  it("only the paying wallet, proven, on any EVM chain, once the invoice is complete", () => {
    expect(canSeeCodes(invoice("complete"), { wallet: wallet(payer), proven: true }, now)).toBe(true);
    expect(canSeeCodes(invoice("complete"), { wallet: wallet(payer.toUpperCase().replace("0X", "0x"), "eip155:42161"), proven: true }, now)).toBe(true);
    expect(canSeeCodes(invoice("fulfilling"), { wallet: wallet(payer), proven: true }, now)).toBe(false);
    // The payer of a fee is named, not proven.
    expect(canSeeCodes(invoice("complete"), { wallet: wallet(payer), proven: false }, now)).toBe(false);
    expect(canSeeCodes(invoice("complete"), { wallet: wallet(other), proven: true }, now)).toBe(false);
    expect(canSeeCodes(invoice("complete"), null, now)).toBe(false);
  });
});
