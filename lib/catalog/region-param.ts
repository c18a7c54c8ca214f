import { z } from "zod";

/**
 * The `region` query parameter of both APIs' product searches and listings: the region of regional products (eSIMs
 * for "Europe", "Asia", "Global"), any case. Zod only, so that the API schemas and their documents can share it.
 */
export const regionParam = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(50, "must be at most 50 characters")
  .optional()
  .meta({ description: "Region of regional and global eSIMs (any case): `Europe`, `Asia`, `Global`…; a one-country product has none.", example: "Europe" });
