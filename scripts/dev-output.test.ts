import { describe, expect, it } from "vitest";
import { announcedPort } from "./dev-output.mjs";

describe("npm run dev: where next dev listens", () => {
  it("reads the port of next dev's Local line, coloured or not, and nothing before it is printed", () => {
    expect(announcedPort("   ▲ Next.js 16.4.6 (Turbopack)\n   - Local:         http://localhost:3001\n")).toBe(3001);
    expect(announcedPort("   - Local:         \x1b[36mhttp://127.0.0.1:4005\x1b[39m\n")).toBe(4005);
    expect(announcedPort("   - Local:         http://[::1]:3002\n")).toBe(3002);
    // The warning that comes first names the port it could not take: not the one it listens on.
    expect(announcedPort(" ⚠ Port 3000 is in use by an unknown process, using available port 3001 instead.\n")).toBeUndefined();
    expect(announcedPort("   ▲ Next.js 16.4.6\n")).toBeUndefined();
  });
});
