import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { oas31 } from "zod-openapi";
import type { ApiResponse, OpenApiDocument } from "@/lib/openapi/common";

// For tests of API documents: is a document sound, is every route file documented, is a real answer the documented one.

/**
 * Why a real answer is not the documented one (none when it is): its body against the documented body schema, and
 * its headers (when given) against the documented response headers, whose names are matched case-insensitively.
 */
export function answerProblems(documented: ApiResponse | undefined, body: unknown, headers?: Headers): string[] {
  if (!documented) return ["this answer is not documented"];
  const problems = issues(documented.body.safeParse(body));
  if (headers && documented.headers) {
    const sent = Object.fromEntries(Object.keys(documented.headers.shape).flatMap((name) => (headers.has(name) ? [[name, headers.get(name)]] : [])));
    problems.push(...issues(documented.headers.safeParse(sent)).map((p) => `header ${p}`));
  }
  return problems;
}

const issues = (result: z.ZodSafeParseResult<unknown>) =>
  result.success ? [] : result.error.issues.map((i) => `${i.path.map(String).join(".") || "(body)"}: ${i.message}`);

/**
 * What is wrong with an OpenAPI 3.1 document, as sentences (none when it is sound): the version, unique operation
 * ids, parameters (location, name, schema, path parameters both declared and in the template), responses, security
 * schemes named by operations, and every `$ref` resolving inside the document.
 */
export function documentProblems(doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  if (!/^3\.1\.\d+$/.test(doc.openapi)) problems.push(`openapi is ${doc.openapi}, not 3.1.x`);
  if (!doc.info?.title || !doc.info.version) problems.push("info needs a title and a version");
  const schemes = new Set(Object.keys(doc.components?.securitySchemes ?? {}));
  const ids = new Set<string>();
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    const inTemplate = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    for (const method of ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const) {
      const op = item[method];
      if (!op) continue;
      const where = `${method.toUpperCase()} ${template}`;
      if (!op.operationId) problems.push(`${where}: no operationId`);
      else if (ids.has(op.operationId)) problems.push(`${where}: operationId ${op.operationId} is used twice`);
      else ids.add(op.operationId);
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(
        (p) => ("$ref" in p ? resolve(doc, p.$ref) : p) as oas31.ParameterObject | undefined,
      );
      const seen = new Set<string>();
      for (const p of params) {
        if (!p) continue; // an unresolved $ref: reported below
        if (!["query", "header", "path", "cookie"].includes(p.in)) problems.push(`${where}: parameter ${p.name} is in ${p.in}`);
        if (!p.name) problems.push(`${where}: a parameter has no name`);
        if (!p.schema && !p.content) problems.push(`${where}: parameter ${p.name} has no schema`);
        if (seen.has(`${p.in}:${p.name}`)) problems.push(`${where}: parameter ${p.in} ${p.name} is declared twice`);
        seen.add(`${p.in}:${p.name}`);
        if (p.in === "path" && (!p.required || !inTemplate.includes(p.name)))
          problems.push(`${where}: path parameter ${p.name} must be required and in the path`);
      }
      for (const name of inTemplate) if (!seen.has(`path:${name}`)) problems.push(`${where}: {${name}} is not a declared path parameter`);
      const responses = Object.entries(op.responses ?? {});
      if (responses.length === 0) problems.push(`${where}: no responses`);
      for (const [status, r] of responses) {
        if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status)) problems.push(`${where}: response status ${status}`);
        if (!("$ref" in r) && !r.description) problems.push(`${where} ${status}: no description`);
      }
      for (const requirement of op.security ?? doc.security ?? []) {
        for (const name of Object.keys(requirement)) if (!schemes.has(name)) problems.push(`${where}: security scheme ${name} is not defined`);
      }
    }
  }
  for (const ref of refs(doc)) if (resolve(doc, ref) === undefined) problems.push(`$ref ${ref} does not resolve`);
  return problems;
}

/** Every `$ref` string in a document. */
function refs(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const v of node) refs(v, found);
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") found.add(v);
      else refs(v, found);
    }
  }
  return found;
}

/** The node a local `$ref` (`#/a/b~1c`) points at, or undefined. */
function resolve(doc: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (!node || typeof node !== "object" || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * The operations the route files under an `app/` folder export: `{ method, path }` for every GET/POST/PUT/PATCH/DELETE
 * handler of every `route.ts`, with `[param]` written `{param}` and route groups `(group)` left out. For tests that
 * make sure every route is documented.
 */
export function routeHandlers(appDir: string, urlPrefix: string): { method: string; path: string }[] {
  const found: { method: string; path: string }[] = [];
  for (const file of fs.readdirSync(appDir, { recursive: true, encoding: "utf8" })) {
    if (path.basename(file) !== "route.ts") continue;
    const segments = path
      .dirname(file)
      .split(path.sep)
      .filter((s) => s !== "." && !/^\(.*\)$/.test(s));
    const url = [urlPrefix, ...segments.map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))].join("/");
    const source = fs.readFileSync(path.join(appDir, file), "utf8");
    for (const m of source.matchAll(/export\s+(?:const|(?:async\s+)?function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g)) found.push({ method: m[1]!, path: url });
  }
  return found;
}
