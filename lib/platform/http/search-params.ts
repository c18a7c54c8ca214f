/** A page's search params as one string each: a repeated parameter's first value; empty ones left out. */
export function searchParamValues(params: Record<string, string | string[] | undefined>): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first.trim() !== "") raw[key] = first;
  }
  return raw;
}
