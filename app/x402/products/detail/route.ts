import { jsonResponse } from "@/lib/http/api-error";
import { withX402Fee, x402Preflight } from "@/lib/http/x402/with-x402-fee";
import { checkDetailQuery, productDetailResponse } from "@/lib/http/x402/x402-product";

export const dynamic = "force-dynamic";

export const GET = withX402Fee(
  "productDetail",
  async (req, { origin }) => jsonResponse(await productDetailResponse(new URL(req.url), origin)),
  (req) => checkDetailQuery(new URL(req.url)),
);

export const OPTIONS = x402Preflight;
