/** Lower-case, accents removed, every run of other characters a single space: "Café-Crème" -> "cafe creme". */
export function normalizeText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** The words of a search query, normalized; at most `max` of them. */
export function queryTokens(query: string, max = 8): string[] {
  return normalizeText(query).split(" ").filter(Boolean).slice(0, max);
}
