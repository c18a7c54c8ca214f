import { DashboardHeader } from "@/components/dashboard/dashboard-header";
import { requireMerchant } from "@/lib/dashboard/http/auth";
import { signOutAction } from "./actions";

/** Every signed-in dashboard page: header with the merchant and the section tabs. Each page still calls requireMerchant itself. */
export default async function SignedInLayout({ children }: { children: React.ReactNode }) {
  const { merchant } = await requireMerchant();
  return (
    <div className="flex min-h-dvh flex-col">
      <DashboardHeader merchantName={merchant.name} signOut={signOutAction} />
      <main id="main" className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-6">
        {children}
      </main>
    </div>
  );
}
