/**
 * An API reference drawn on the server from an OpenAPI 3.1 document: operations grouped by tag, their parameters,
 * request body and answers with every field. No script runs in the browser: fields open with <details>.
 */
import type { ReactNode } from "react";

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  format?: string;
  default?: unknown;
  example?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  additionalProperties?: boolean | Schema;
};
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema };
type Media = { schema?: Schema };
type Response = { description?: string; headers?: Record<string, { description?: string; schema?: Schema }>; content?: Record<string, Media> };
type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, Response>;
  security?: unknown[];
  [ext: `x-${string}`]: unknown;
};
export type OpenApiDocument = {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Record<string, Operation> | undefined>;
  components?: {
    schemas?: Record<string, Schema>;
    securitySchemes?: Record<string, { type: string; scheme?: string; name?: string; in?: string; description?: string }>;
  };
};

const METHOD_STYLE: Record<string, string> = {
  get: "bg-emerald-100 text-emerald-900",
  post: "bg-sky-100 text-sky-900",
  put: "bg-amber-100 text-amber-900",
  patch: "bg-amber-100 text-amber-900",
  delete: "bg-rose-100 text-rose-900",
};

/** Text with `code` spans and blank-line paragraphs, as the document's descriptions write them. */
export function Prose({ text, className = "" }: { text?: string; className?: string }) {
  if (!text) return null;
  return (
    <div className={`flex flex-col gap-2 ${className}`}>
      {text.split(/\n\n+/).map((para, i) => (
        <p key={i}>{inlineMarkdown(para)}</p>
      ))}
    </div>
  );
}

/**
 * The few inline marks the documents' descriptions use (OpenAPI descriptions are CommonMark): `code`, **bold** and
 * [links](https://…). Anything else stays plain text; only http(s) links become links.
 */
function inlineMarkdown(para: string): React.ReactNode[] {
  return para.split(/(`[^`]+`|\*\*[^*]+\*\*|\[[^\]]+\]\(https?:\/\/[^)\s]+\))/).map((part, j) => {
    if (part.length > 2 && part.startsWith("`") && part.endsWith("`"))
      return (
        <code key={j} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] [overflow-wrap:anywhere] text-slate-900">
          {part.slice(1, -1)}
        </code>
      );
    if (part.length > 4 && part.startsWith("**") && part.endsWith("**"))
      return (
        <strong key={j} className="font-semibold text-slate-900">
          {part.slice(2, -2)}
        </strong>
      );
    const link = /^\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)$/.exec(part);
    if (link)
      return (
        <a key={j} href={link[2]} className="font-medium text-brand-700 underline underline-offset-2" rel="noopener noreferrer">
          {link[1]}
        </a>
      );
    return part;
  });
}

function refName(ref: string): string {
  return ref.split("/").at(-1) ?? ref;
}

function resolve(doc: OpenApiDocument, s: Schema): Schema {
  return s.$ref ? (doc.components?.schemas?.[refName(s.$ref)] ?? {}) : s;
}

/** A schema's type in a few words: `string`, `array of Product`, `"a" | "b"`. */
export function typeLabel(s: Schema | undefined): string {
  if (!s) return "any";
  if (s.$ref) return refName(s.$ref);
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  const union = s.anyOf ?? s.oneOf;
  if (union) return union.map(typeLabel).join(" | ");
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.includes("array")) return `array of ${typeLabel(s.items)}`;
  if (types.length === 0) return s.properties ? "object" : "any";
  return types.map((t) => (s.format && t === "string" ? `${t} (${s.format})` : t)).join(" | ");
}

function constraints(s: Schema): string[] {
  const out: string[] = [];
  if (s.minimum !== undefined && s.maximum !== undefined) out.push(`${s.minimum} to ${s.maximum}`);
  else if (s.minimum !== undefined) out.push(`≥ ${s.minimum}`);
  else if (s.maximum !== undefined) out.push(`≤ ${s.maximum}`);
  if (s.minLength !== undefined && s.maxLength !== undefined) out.push(`${s.minLength} to ${s.maxLength} characters`);
  else if (s.maxLength !== undefined) out.push(`at most ${s.maxLength} characters`);
  else if (s.minLength !== undefined) out.push(`at least ${s.minLength} characters`);
  if (s.minItems !== undefined) out.push(`at least ${s.minItems} item${s.minItems === 1 ? "" : "s"}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  if (s.example !== undefined) out.push(`example ${JSON.stringify(s.example)}`);
  return out;
}

/** The object a schema describes, if any: itself, the items of an array, or the object member of a nullable union. */
function objectOf(doc: OpenApiDocument, s: Schema): Schema | undefined {
  const r = resolve(doc, s);
  if (r.properties) return r;
  if (r.items) return objectOf(doc, r.items);
  const union = r.anyOf ?? r.oneOf;
  return union?.map((u) => objectOf(doc, u)).find(Boolean);
}

/** Whether a schema is, or holds (as its items, or a member of a union, however nested), a named schema. */
function usesNamed(s: Schema): boolean {
  return Boolean(s.$ref ?? s.items?.$ref ?? (s.anyOf ?? s.oneOf)?.some(usesNamed));
}

/** A schema's type with links to the named schemas it uses. */
function TypeText({ doc, schema }: { doc: OpenApiDocument; schema: Schema | undefined }) {
  const label = typeLabel(schema);
  return (
    <span className="font-mono text-xs text-slate-600">
      {label.split(/(\b[A-Z][A-Za-z]+\b)/).map((part, i) =>
        doc.components?.schemas?.[part] ? (
          <a key={i} href={`#schema-${part}`} className="text-brand-700 underline">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </span>
  );
}

/**
 * The fields of an object schema, each with its type, whether it is always there, what it means, and the fields of
 * an object written in place. A named schema is linked, not repeated: it is drawn once under "Schemas".
 */
export function Fields({ doc, schema, depth = 0 }: { doc: OpenApiDocument; schema: Schema; depth?: number }): ReactNode {
  const obj = objectOf(doc, schema);
  if (!obj?.properties) return null;
  const required = new Set(obj.required ?? []);
  return (
    <ul className={`flex flex-col divide-y divide-slate-100 ${depth > 0 ? "mt-2 border-l-2 border-slate-200 pl-3" : ""}`}>
      {Object.entries(obj.properties).map(([name, prop]) => {
        const named = usesNamed(prop);
        const resolved = resolve(doc, prop);
        const nested = !named && depth < 5 && objectOf(doc, prop)?.properties;
        const head = (
          <span className="inline-flex flex-wrap items-baseline gap-x-2 gap-y-1">
            <code className="font-mono text-sm font-semibold text-slate-900">{name}</code>
            <TypeText doc={doc} schema={prop} />
            {required.has(name) ? <span className="text-xs font-medium text-rose-800">required</span> : null}
          </span>
        );
        const about = (
          <>
            <Prose text={prop.description ?? (named ? undefined : resolved.description)} className="text-sm text-slate-700" />
            {constraints(resolved).length ? <p className="text-xs [overflow-wrap:anywhere] text-slate-600">{constraints(resolved).join(" · ")}</p> : null}
          </>
        );
        return (
          <li key={name} className="py-2">
            {nested ? (
              <details>
                <summary className="cursor-pointer rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
                  {head}
                </summary>
                {about}
                <Fields doc={doc} schema={prop} depth={depth + 1} />
              </details>
            ) : (
              <>
                {head}
                {about}
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function ParametersTable({ doc, params }: { doc: OpenApiDocument; params: Parameter[] }) {
  return (
    // Focusable, so that a keyboard can scroll a table wider than a phone.
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Parameters">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Parameters</caption>
        <thead className="text-xs tracking-wide text-slate-600 uppercase">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              Name
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              In
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Type
            </th>
            <th scope="col" className="py-1 font-medium">
              About
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 align-top">
          {params.map((p) => (
            <tr key={`${p.in}:${p.name}`}>
              <td className="py-2 pr-3">
                <code className="font-mono font-semibold text-slate-900">{p.name}</code>
                {p.required ? <span className="ml-1 text-xs font-medium text-rose-800">required</span> : null}
              </td>
              <td className="py-2 pr-3 text-slate-700">{p.in}</td>
              <td className="py-2 pr-3">
                <TypeText doc={doc} schema={p.schema} />
              </td>
              <td className="py-2 text-slate-700">
                <Prose text={p.description} />
                {p.schema && constraints(p.schema).length ? (
                  <p className="text-xs [overflow-wrap:anywhere] text-slate-600">{constraints(p.schema).join(" · ")}</p>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function OperationView({ doc, method, path, op }: { doc: OpenApiDocument; method: string; path: string; op: Operation }) {
  const id = op.operationId ?? `${method}-${path}`;
  const body = op.requestBody?.content?.["application/json"]?.schema;
  const fee = op["x-x402-fee"];
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-32 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 lg:scroll-mt-20">
      <h3 id={`${id}-title`} className="flex flex-wrap items-center gap-2 text-base font-semibold text-slate-900">
        <span className={`rounded-md px-2 py-0.5 font-mono text-xs font-bold uppercase ${METHOD_STYLE[method] ?? "bg-slate-100"}`}>{method}</span>
        <code className="font-mono text-sm break-all">{path}</code>
      </h3>
      {op.summary ? <p className="mt-1 font-medium text-slate-800">{op.summary}</p> : null}
      <Prose text={op.description} className="mt-2 text-sm text-slate-700" />
      {fee !== undefined ? (
        <p className="mt-2 text-sm text-slate-700">
          Fee: <code className="font-mono">{String(typeof fee === "object" && fee && "amount" in fee ? (fee as { amount: unknown }).amount : fee)}</code> (USDC
          atomic units)
        </p>
      ) : null}
      {op.parameters?.length ? (
        <div className="mt-4">
          <h4 className="text-sm font-semibold text-slate-900">Parameters</h4>
          <ParametersTable doc={doc} params={op.parameters} />
        </div>
      ) : null}
      {body ? (
        <div className="mt-4">
          <h4 className="text-sm font-semibold text-slate-900">
            Request body <TypeText doc={doc} schema={body} />
          </h4>
          <Fields doc={doc} schema={body} />
        </div>
      ) : null}
      <div className="mt-4">
        <h4 className="text-sm font-semibold text-slate-900">Answers</h4>
        <ul className="mt-1 flex flex-col gap-1">
          {Object.entries(op.responses ?? {}).map(([status, res]) => {
            const schema = res.content?.["application/json"]?.schema;
            return (
              <li key={status}>
                <details className="rounded-lg px-2 py-1 open:bg-slate-50">
                  <summary className="cursor-pointer rounded text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
                    <span
                      className={`mr-2 font-mono font-semibold ${status.startsWith("2") ? "text-emerald-800" : status.startsWith("4") ? "text-amber-900" : "text-rose-800"}`}
                    >
                      {status}
                    </span>
                    <Prose text={res.description} className="inline-flex text-slate-700 [&>p]:inline" />
                  </summary>
                  {res.headers && Object.keys(res.headers).length ? (
                    <p className="mt-1 text-xs text-slate-600">
                      Headers:{" "}
                      {Object.keys(res.headers).map((h, i) => (
                        <span key={h}>
                          {i ? ", " : ""}
                          <code className="font-mono">{h}</code>
                        </span>
                      ))}
                    </p>
                  ) : null}
                  {schema?.$ref ? (
                    <p className="mt-1 text-sm text-slate-700">
                      Body: <TypeText doc={doc} schema={schema} />
                    </p>
                  ) : schema ? (
                    <Fields doc={doc} schema={schema} />
                  ) : null}
                </details>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

/** The whole reference: the API's description, how to authenticate, a contents list, then every operation by tag. */
export function OpenApiReference({ doc, jsonUrl, intro }: { doc: OpenApiDocument; jsonUrl: string; intro?: ReactNode }) {
  const ops = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item ?? {})
      .filter(([m]) => m in METHOD_STYLE)
      .map(([method, op]) => ({ path, method, op })),
  );
  const tagNames = [...new Set([...(doc.tags ?? []).map((t) => t.name), ...ops.flatMap((o) => o.op.tags ?? ["Other"])])];
  const groups = tagNames
    .map((name) => ({ name, about: doc.tags?.find((t) => t.name === name)?.description, ops: ops.filter((o) => (o.op.tags ?? ["Other"]).includes(name)) }))
    .filter((g) => g.ops.length);
  const server = doc.servers?.[0]?.url;
  const schemas = Object.entries(doc.components?.schemas ?? {});

  return (
    <div className="flex flex-col gap-6 lg:flex-row lg:items-start">
      <nav
        aria-label="Operations"
        className="rounded-2xl bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200 lg:sticky lg:top-4 lg:max-h-[calc(100dvh-2rem)] lg:w-64 lg:shrink-0 lg:overflow-y-auto"
      >
        <ul className="flex flex-col gap-3">
          {groups.map((g) => (
            <li key={g.name}>
              <a href={`#tag-${g.name}`} className="font-semibold text-slate-900 hover:underline">
                {g.name}
              </a>
              <ul className="mt-1 flex flex-col gap-0.5">
                {g.ops.map(({ path, method, op }) => (
                  <li key={`${method} ${path}`}>
                    <a
                      href={`#${op.operationId ?? `${method}-${path}`}`}
                      aria-label={`${method.toUpperCase()} ${path}`}
                      className="flex gap-2 rounded px-1 py-0.5 text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                    >
                      <span className="w-9 shrink-0 font-mono text-xs font-bold uppercase">{method}</span>
                      <span className="font-mono text-xs break-all">{path}</span>
                    </a>
                  </li>
                ))}
              </ul>
            </li>
          ))}
          {schemas.length ? (
            <li>
              <a href="#schemas" className="font-semibold text-slate-900 hover:underline">
                Schemas
              </a>
            </li>
          ) : null}
        </ul>
      </nav>

      <div className="flex min-w-0 flex-1 flex-col gap-6">
        <header className="flex flex-col gap-3">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{doc.info.title}</h1>
          <Prose text={doc.info.description} className="text-slate-700" />
          {intro}
          <dl className="grid gap-x-4 gap-y-2 rounded-2xl bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200 sm:grid-cols-[auto_1fr]">
            {server ? (
              <>
                <dt className="text-slate-600">Base URL</dt>
                <dd>
                  <code className="font-mono break-all text-slate-900">{server}</code>
                </dd>
              </>
            ) : null}
            {Object.entries(doc.components?.securitySchemes ?? {}).map(([name, scheme]) => (
              <div key={name} className="contents">
                <dt className="text-slate-600">{scheme.type === "http" ? `HTTP ${scheme.scheme}` : scheme.in ? `Header ${scheme.name}` : name}</dt>
                <dd>
                  <Prose text={scheme.description} className="text-slate-800" />
                </dd>
              </div>
            ))}
            <dt className="text-slate-600">Version</dt>
            <dd className="text-slate-800">
              {doc.info.version}, OpenAPI 3.1:{" "}
              <a href={jsonUrl} className="font-medium text-brand-700 underline">
                {jsonUrl.replace(/^https?:\/\/[^/]+/, "")}
              </a>
            </dd>
          </dl>
        </header>

        {groups.map((g) => (
          <section key={g.name} aria-labelledby={`tag-${g.name}`} className="flex flex-col gap-4">
            <div>
              <h2 id={`tag-${g.name}`} className="scroll-mt-32 text-xl font-semibold text-slate-900 lg:scroll-mt-20">
                {g.name}
              </h2>
              <Prose text={g.about} className="text-sm text-slate-700" />
            </div>
            {g.ops.map(({ path, method, op }) => (
              <OperationView key={`${method} ${path}`} doc={doc} method={method} path={path} op={op} />
            ))}
          </section>
        ))}

        {schemas.length ? (
          <section aria-labelledby="schemas" className="flex flex-col gap-4">
            <h2 id="schemas" className="scroll-mt-32 text-xl font-semibold text-slate-900 lg:scroll-mt-20">
              Schemas
            </h2>
            {schemas.map(([name, schema]) => (
              <section
                key={name}
                id={`schema-${name}`}
                aria-labelledby={`schema-${name}-title`}
                className="scroll-mt-32 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 lg:scroll-mt-20"
              >
                <h3 id={`schema-${name}-title`} className="font-mono text-base font-semibold text-slate-900">
                  {name}
                </h3>
                <Prose text={schema.description} className="mt-1 text-sm text-slate-700" />
                <Fields doc={doc} schema={schema} />
              </section>
            ))}
          </section>
        ) : null}
      </div>
    </div>
  );
}
