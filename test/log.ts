import pino from "pino";
import { log } from "@/lib/platform/log";

export type LogLine = Record<string, unknown> & { msg?: string; level?: string };

/**
 * For tests: what the shop's log writes from now on (every level), as parsed lines, until `restore`. The shop's
 * lines go to the capture instead of stdout, with the context's ids as they would be written.
 */
export function captureLog(): { lines: LogLine[]; restore(): void } {
  const lines: LogLine[] = [];
  const target = log as unknown as Record<symbol, unknown>;
  const stream = target[pino.symbols.streamSym];
  const level = log.level;
  target[pino.symbols.streamSym] = {
    write(chunk: string) {
      for (const line of chunk.split("\n").filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
    },
  };
  log.level = "debug";
  return {
    lines,
    restore() {
      target[pino.symbols.streamSym] = stream;
      log.level = level;
    },
  };
}
