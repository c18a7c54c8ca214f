import { describe, expect, it } from "vitest";
import { parseStockFile, StockFileError } from "./stock-file";

describe("stock files", () => {
  it("reads a CSV with a header: code, pin and expiration date, in any column order", () => {
    const { rows, rejected } = parseStockFile("pin,code,expiration_date\n1234,AAAA-BBBB-CCCC,2027-12-31\n,DDDD-EEEE,\n");
    expect(rejected).toEqual([]);
    expect(rows).toEqual([
      { line: 2, code: "AAAA-BBBB-CCCC", pin: "1234", expirationDate: "2027-12-31" },
      { line: 3, code: "DDDD-EEEE", pin: null, expirationDate: null },
    ]);
  });

  it("reads one code per line without a header, skipping blank lines and a byte-order mark", () => {
    const { rows } = parseStockFile("\uFEFFX1\n\n  X2  \r\nX3\n");
    expect(rows.map((r) => [r.line, r.code])).toEqual([
      [1, "X1"],
      [2, "X2"],
      [3, "X3"],
    ]);
  });

  it("reports bad rows with their line and keeps the good ones", () => {
    const { rows, rejected } = parseStockFile(
      [
        "code,pin,expiration_date",
        "GOOD-1,,",
        "GOOD-1,,",
        ",12,",
        "BAD-DATE,,2027-02-30",
        "TOO,MANY,2027-01-01,values",
        `${"L".repeat(201)},,`,
        "GOOD-2,99,",
      ].join("\n"),
    );
    expect(rows.map((r) => r.code)).toEqual(["GOOD-1", "GOOD-2"]);
    expect(rejected).toEqual([
      { line: 3, error: "the same code as line 2" },
      { line: 4, error: "the code is empty" },
      { line: 5, error: "the expiration date is not a date in the form YYYY-MM-DD" },
      { line: 6, error: "4 values where 3 column(s) are expected" },
      { line: 7, error: "the code is longer than 200 characters" },
    ]);
  });

  it("refuses a file it cannot read as stock", () => {
    expect(() => parseStockFile("")).toThrow(StockFileError);
    expect(() => parseStockFile("code,serial\nA,1\n")).toThrow(/Unknown column\(s\): serial/);
    expect(() => parseStockFile('code\n"unterminated\n')).toThrow(/Not valid CSV/);
  });
});
