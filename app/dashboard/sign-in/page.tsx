import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { DemoMerchantSignIn } from "@/components/dashboard/demo-merchant";
import { SignInForm } from "@/components/dashboard/sign-in-form";
import { config } from "@/lib/platform/config";
import { DEMO_MERCHANT_CREDIT_CENTS } from "@/lib/dashboard/demo-merchant";
import { currentMerchant, DASHBOARD_HOME } from "@/lib/dashboard/http/auth";
import { signInAction } from "./actions";

export const metadata: Metadata = { title: "Sign in" };

/** Why the last session ended, when a page sent the merchant here on purpose. */
const ENDED: Record<string, string> = {
  "signed-out": "You are signed out.",
  "key-revoked": "You revoked the key you were signed in with. Sign in with another one.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await currentMerchant()) redirect(DASHBOARD_HOME);
  const { ended } = await searchParams;
  const notice = typeof ended === "string" ? ENDED[ended] : undefined;
  const devnet = config().networkMode === "devnet";
  const signIn = (
    <section aria-labelledby="sign-in-heading" className="flex flex-col gap-5 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <div className="flex flex-col gap-1">
        <h1 id="sign-in-heading" className="text-2xl font-bold text-slate-900">
          Merchant sign-in
        </h1>
        <p className="text-sm text-slate-700">Use the API credentials of your merchant account: a business key&apos;s ID and secret, or a personal token.</p>
      </div>
      {notice && (
        <p role="status" className="rounded-xl bg-brand-50 px-3 py-2 text-sm text-brand-700">
          {notice}
        </p>
      )}
      <SignInForm action={signInAction} />
    </section>
  );
  return (
    <main id="main" className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center gap-6 px-4 py-10">
      <Link href="/" className="flex items-center gap-2 self-center text-lg font-bold tracking-tight text-slate-900">
        <span aria-hidden className="grid h-8 w-8 place-items-center rounded-lg bg-brand-600 text-sm font-black text-white">
          x4
        </span>
        Storefront
      </Link>
      {devnet ? (
        // The devnet's way in without an operator: the route behind it answers 404 in the other modes.
        <DemoMerchantSignIn creditCents={Number(DEMO_MERCHANT_CREDIT_CENTS)}>{signIn}</DemoMerchantSignIn>
      ) : (
        <>
          {signIn}
          <p className="text-center text-sm text-slate-700">
            No credentials yet? The shop&apos;s operator creates merchant accounts and gives you the first ones.
          </p>
        </>
      )}
    </main>
  );
}
