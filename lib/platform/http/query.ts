import { z } from "zod";

// The words of a query-string refusal, for both APIs (/x402 and /api/v2): the parameter and the rule it broke, read
// from the parameter's own schema ("must be a whole number from 1 to 100"), never zod's text for the failure
// ("expected number, received NaN"). Each API wraps them in its own error (code, status, envelope).

/** A refused query parameter: its name and its rule, in words (the rule starts with "must" or "is"). */
export type QueryRefusal = { param: string; rule: string };

type Issue = { path: PropertyKey[]; message: string; code?: string };

/** The schema under `.optional()`, `.default()` and transforms: the type the value must have. */
function innerType(schema: z.ZodType | undefined): z.ZodType | undefined {
  let t = schema;
  for (;;) {
    if (t instanceof z.ZodOptional || t instanceof z.ZodDefault || t instanceof z.ZodNullable) t = t.unwrap() as z.ZodType;
    else if (t instanceof z.ZodPipe) t = t.in as z.ZodType;
    else return t;
  }
}

const bounded = (n: number | null | undefined): n is number => typeof n === "number" && Math.abs(n) < Number.MAX_SAFE_INTEGER;

/** A number parameter's whole rule, whatever it failed (not a number, a fraction, out of range). */
function numberRule(n: z.ZodNumber): string {
  const what = n.isInt ? "a whole number" : "a number";
  const min = bounded(n.minValue) ? n.minValue : undefined;
  const max = bounded(n.maxValue) ? n.maxValue : undefined;
  if (min !== undefined && max !== undefined) return `must be ${what} from ${min} to ${max}`;
  if (min !== undefined) return `must be ${what}, ${min} or more`;
  if (max !== undefined) return `must be ${what}, ${max} or less`;
  return `must be ${what}`;
}

/** zod's own English texts ("Invalid input: …", "Too big: …"): the schemas' messages are the shop's ("must …"). */
const ZOD_TEXT = /^(Invalid|Too (big|small)|Unrecognized)\b/;

function stringRule(s: z.ZodString): string | undefined {
  const min = s.minLength ?? 0;
  const max = s.maxLength;
  if (max !== null && max !== undefined) return min > 0 ? `must be ${min} to ${max} characters` : `must be at most ${max} characters`;
  return min > 0 ? `must be at least ${min} characters` : undefined;
}

/** The rule a parameter broke: a number's from its bounds; otherwise the schema's message, or one made from its type. */
function ruleOf(type: z.ZodType | undefined, issue: Issue): string {
  if (type instanceof z.ZodNumber) return numberRule(type);
  if (!ZOD_TEXT.test(issue.message)) return issue.message;
  if (type instanceof z.ZodEnum) return `must be one of ${type.options.map(String).join(", ")}`;
  if (type instanceof z.ZodString) return stringRule(type) ?? "is not valid here";
  return "is not valid here";
}

/** The first problem zod found in a query string, as the parameter and its rule in words. */
export function queryRefusal(schema: z.ZodObject, issues: readonly Issue[]): QueryRefusal {
  const issue = issues[0];
  const param = issue?.path.map(String).join(".") || "query";
  if (!issue) return { param, rule: "is not valid here" };
  const key = issue.path[0];
  const type = typeof key === "string" ? innerType(schema.shape[key] as z.ZodType | undefined) : undefined;
  return { param, rule: ruleOf(type, issue) };
}
