import type { z } from "zod";
import type { CreateDocumentOptions, createDocument, ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponseObject } from "zod-openapi";

/** A document as zod-openapi's createDocument makes it. */
export type OpenApiDocument = ReturnType<typeof createDocument>;

/** One answer of an operation: what it means, its JSON body, and the headers it carries. */
export type ApiResponse = { description: string; body: z.ZodType; headers?: z.ZodObject };

/**
 * One operation of an API: the single source of its OpenAPI document and of the schemas tests check real answers
 * against. `operation` is the OpenAPI operation without its responses (operationId, parameters, body, security, …).
 */
export type ApiOperation = {
  method: "GET" | "POST";
  path: string;
  operation: Omit<ZodOpenApiOperationObject, "responses">;
  responses: Record<number, ApiResponse>;
};

const json = (r: ApiResponse): ZodOpenApiResponseObject => ({
  description: r.description,
  ...(r.headers ? { headers: r.headers } : {}),
  content: { "application/json": { schema: r.body } },
});

/** The `paths` of a document (for zod-openapi's createDocument) from a table of operations. */
export function documentPaths(operations: readonly ApiOperation[]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of operations) {
    const responses = Object.fromEntries(Object.entries(op.responses).map(([status, r]) => [status, json(r)]));
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: { ...op.operation, responses } };
  }
  return paths;
}

/** The documented answer of one operation with one status, or undefined when it is not documented. */
export function operationResponse(operations: readonly ApiOperation[], method: string, pathTemplate: string, status: number): ApiResponse | undefined {
  const op = operations.find((o) => o.method === method.toUpperCase() && o.path === pathTemplate);
  return op?.responses[status];
}

/** createDocument options: leaves out the safe-integer bounds zod gives every integer, which say nothing to a reader. */
export const DOCUMENT_OPTIONS: CreateDocumentOptions = {
  override: ({ jsonSchema }) => {
    if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  },
};
