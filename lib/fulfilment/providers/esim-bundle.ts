/**
 * Data and validity of an eSIM bundle from its package value ("3GB, 30 Days", "500MB, 7 Days", "Unlimited, 7 Days"),
 * for orders whose package row no longer says. data_mb null = unlimited (or not stated); GB counts as 1024 MB, as
 * the catalog's own packages do.
 */
export function parseBundle(value: string): { data_mb: number | null; validity_days: number | null } {
  const data = /(\d+(?:\.\d+)?)\s*(GB|MB)\b/i.exec(value);
  const days = /(\d+)\s*days?\b/i.exec(value);
  const amount = data ? Number(data[1]) : NaN;
  return {
    data_mb: data && Number.isFinite(amount) ? Math.round(data[2]!.toUpperCase() === "GB" ? amount * 1024 : amount) : null,
    validity_days: days ? Number(days[1]) : null,
  };
}
