import { productImage } from "@/lib/catalog/get-product-image";
import { guardedRoute } from "@/lib/platform/http/guarded-route";

export const dynamic = "force-dynamic";

export const GET = guardedRoute(async (_req: Request, { params }: { params: Promise<{ file: string }> }) => {
  const { file } = await params;
  const slug = file.replace(/\.svg$/, "");
  const svg = /^[a-z0-9-]{1,80}$/.test(slug) ? await productImage(slug) : null;
  if (!svg) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return new Response(svg, {
    headers: {
      "Content-Type": "image/svg+xml",
      "Cache-Control": "public, max-age=86400, stale-while-revalidate=604800",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
});
