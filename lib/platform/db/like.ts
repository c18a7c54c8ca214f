/** `%`, `_` and `\` in a search are literal characters, not LIKE patterns. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
