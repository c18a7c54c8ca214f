import { z } from "zod";

/**
 * The same schema, tolerant of fields it does not know: every object in it (at any depth) drops unknown keys instead
 * of refusing them. The merchant API's answer schemas (lib/api/merchant/schemas.ts) are strict, so that this shop's
 * tests catch a field its document does not describe; an upstream may be a newer version, or another service with
 * the same interface, and adds fields freely. Values are still checked: a known field of the wrong type is refused.
 */
export function tolerant<T extends z.ZodType>(schema: T): z.ZodType<z.output<T>> {
  return loosen(schema) as z.ZodType<z.output<T>>;
}

function loosen(schema: z.ZodType): z.ZodType {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, z.ZodType>;
      return z.object(Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, loosen(field)])));
    }
    case "array":
      return z.array(loosen(def.element as z.ZodType));
    case "optional":
      return loosen(def.innerType as z.ZodType).optional();
    case "nullable":
      return loosen(def.innerType as z.ZodType).nullable();
    case "union":
      return z.union((def.options as z.ZodType[]).map(loosen) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    default:
      return schema;
  }
}
