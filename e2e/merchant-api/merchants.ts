import { expect } from "@playwright/test";
import { assertDocumentedV2 } from "@/lib/openapi/v2";
import { E2E_ADMIN_TOKEN } from "../server-env";

export type Json = Record<string, unknown> & { meta?: Record<string, unknown>; data?: unknown; error_code?: string; message?: string };

/**
 * A merchant made through the admin API, and a client of the merchant API with its business key. Every answer must be
 * one the OpenAPI document describes.
 */
export async function newMerchant(baseURL: string, creditUsd: number) {
  const res = await fetch(`${baseURL}/api/admin/merchants`, {
    method: "POST",
    headers: { Authorization: `Bearer ${E2E_ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "E2E merchant", credit_usd: creditUsd }),
  });
  expect(res.status).toBe(201);
  const m = (await res.json()) as { merchant_id: string; api_id: string; api_secret: string; api_token: string; webhook_secret: string };
  const basic = `Basic ${Buffer.from(`${m.api_id}:${m.api_secret}`).toString("base64")}`;
  const call = async (path: string, init: { method?: string; body?: unknown; auth?: string } = {}) => {
    const res = await fetch(`${baseURL}/api/v2${path}`, {
      method: init.method ?? (init.body ? "POST" : "GET"),
      headers: { Authorization: init.auth ?? basic, ...(init.body ? { "Content-Type": "application/json" } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    const body = (await res.json()) as Json;
    assertDocumentedV2(init.method ?? (init.body ? "POST" : "GET"), path, res.status, body);
    return { status: res.status, headers: res.headers, body };
  };
  return { ...m, basic, call };
}
