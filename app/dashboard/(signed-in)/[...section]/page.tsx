import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { EmptyState } from "@/components/dashboard/empty-state";
import { DASHBOARD_NAV } from "@/components/dashboard/nav-items";
import { PageHeader } from "@/components/dashboard/page-header";
import { requireMerchant } from "@/lib/http/dashboard-auth";

/**
 * A section of the nav whose page is not built yet: says so and points to the API that has the data. A section's own
 * page (`app/dashboard/(signed-in)/orders/page.tsx`) takes precedence over this catch-all as soon as it exists.
 */
const API_FOR: Record<string, string> = {
  "/dashboard/webhooks": "GET /api/v2/webhooks/deliveries",
};

type Props = { params: Promise<{ section: string[] }> };

const sectionOf = async (params: Props["params"]) => {
  const href = `/dashboard/${(await params).section.join("/")}`;
  return DASHBOARD_NAV.find((item) => item.href === href && API_FOR[href]);
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: (await sectionOf(params))?.label ?? "Not found" };
}

export default async function UpcomingSection({ params }: Props) {
  await requireMerchant();
  const section = await sectionOf(params);
  if (!section) notFound();
  return (
    <>
      <PageHeader title={section.label} />
      <EmptyState title="Coming soon">
        <p>
          This page is on its way. Until then the API has the same data: <code className="font-mono text-slate-900">{API_FOR[section.href]}</code>.
        </p>
      </EmptyState>
    </>
  );
}
