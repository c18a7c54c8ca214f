import type { Redis } from "ioredis";
import { resolutionMs } from "./sliding-log";
import type { LogStore } from "./store";
import { log } from "@/lib/platform/log";

/**
 * One request against several logs, as one Lua script (Redis runs a script alone, so two servers never both take a
 * log's last place): the same steps as takeAll() in lib/platform/ratelimit/sliding-log.ts. A log is a string of
 * `at:n` entries, oldest first, that expires when its newest entry leaves the window.
 *
 * KEYS: the logs. ARGV: now (ms), then points, window (ms) and step (ms) of each log.
 * Answers { used, oldest or -1, accepted 1/0 } per log.
 */
const TAKE = `
local now = tonumber(ARGV[1])
local logs = {}
local ok = true
for k = 1, #KEYS do
  local points = tonumber(ARGV[(k - 1) * 3 + 2])
  local window = tonumber(ARGV[(k - 1) * 3 + 3])
  local l = { at = {}, n = {}, used = 0, pruned = false }
  local raw = redis.call('GET', KEYS[k])
  if raw then
    for a, m in string.gmatch(raw, '(%d+):(%d+)') do
      a = tonumber(a)
      m = tonumber(m)
      if a > now - window then
        l.at[#l.at + 1] = a
        l.n[#l.n + 1] = m
        l.used = l.used + m
      else
        l.pruned = true
      end
    end
  end
  if l.used >= points then ok = false end
  logs[k] = l
end
local out = {}
for k = 1, #KEYS do
  local window = tonumber(ARGV[(k - 1) * 3 + 3])
  local step = tonumber(ARGV[(k - 1) * 3 + 4])
  local l = logs[k]
  local len = #l.at
  if ok then
    local t = math.ceil(now / step) * step
    if len > 0 and l.at[len] >= t then
      l.n[len] = l.n[len] + 1
    else
      len = len + 1
      l.at[len] = t
      l.n[len] = 1
    end
    l.used = l.used + 1
  end
  if ok or l.pruned then
    if len == 0 then
      redis.call('DEL', KEYS[k])
    else
      local parts = {}
      for i = 1, len do parts[i] = string.format('%d:%d', l.at[i], l.n[i]) end
      redis.call('SET', KEYS[k], table.concat(parts, ','), 'PX', math.max(1, l.at[len] + window - now))
    end
  end
  out[k] = { l.used, l.at[1] or -1, ok and 1 or 0 }
end
return out
`;

/** Takes the newest request out of each log (KEYS), keeping its expiry: removeNewest() in lib/platform/ratelimit/sliding-log.ts. */
const GIVE_BACK = `
for k = 1, #KEYS do
  local raw = redis.call('GET', KEYS[k])
  if raw then
    local parts = {}
    for entry in string.gmatch(raw, '[^,]+') do parts[#parts + 1] = entry end
    local a, m = string.match(parts[#parts], '(%d+):(%d+)')
    if tonumber(m) > 1 then
      parts[#parts] = a .. ':' .. (tonumber(m) - 1)
    else
      parts[#parts] = nil
    end
    if #parts == 0 then redis.call('DEL', KEYS[k]) else redis.call('SET', KEYS[k], table.concat(parts, ','), 'KEEPTTL') end
  end
end
return 0
`;

type LogCommands = {
  rateLimitTake(numKeys: number, ...keysAndArgs: (string | number)[]): Promise<[number, number, number][]>;
  rateLimitGiveBack(numKeys: number, ...keys: string[]): Promise<number>;
};

/** The sliding logs in Redis. The scripts are sent once and then called by their hash (ioredis's `defineCommand`). */
export function createRedisLogs(client: Redis): LogStore {
  client.defineCommand("rateLimitTake", { lua: TAKE });
  client.defineCommand("rateLimitGiveBack", { lua: GIVE_BACK });
  const commands = client as unknown as LogCommands;
  return {
    kind: "redis",
    async take(counts, now) {
      if (counts.length === 0) return { accepted: true, states: [] };
      const keys = counts.map((c) => `ratelimit:${c.key}`);
      const args = counts.flatMap((c) => [c.policy.points, c.policy.durationSec * 1000, resolutionMs(c.policy)]);
      const rows = await commands.rateLimitTake(keys.length, ...keys, now, ...args);
      if (rows.length !== counts.length) throw new Error(`rate limits: ${rows.length} logs answered for ${counts.length}`);
      return {
        accepted: rows.every((r) => r[2] === 1),
        states: rows.map(([used, oldest], i) => ({
          used,
          freesAt: oldest < 0 ? undefined : oldest + counts[i]!.policy.durationSec * 1000,
        })),
      };
    },
    async giveBack(counts) {
      if (counts.length === 0) return;
      await commands.rateLimitGiveBack(counts.length, ...counts.map((c) => `ratelimit:${c.key}`));
    },
    close: async () => {},
  };
}

/**
 * A Redis connection for the logs. Without an offline queue a command fails at once while the connection is down,
 * and the limiter counts in memory (its insurance) instead of holding requests until Redis is back.
 */
export async function connectRedis(url: string): Promise<Redis> {
  // Loaded only when Redis is configured.
  const { Redis } = await import("ioredis");
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let lastLogged = 0;
  client.on("error", (err: Error) => {
    // ioredis reports every failed reconnect; once a minute is enough to tell the operator.
    if (Date.now() - lastLogged < 60_000) return;
    lastLogged = Date.now();
    log.error({ err: err.message }, "rate limits: Redis connection error (counting in memory until it is back)");
  });
  return client;
}
