"use server";

import { redirect } from "next/navigation";
import { assertSameOrigin, endDashboardSession, SIGN_IN_PATH } from "@/lib/dashboard/http/auth";

/** Sign out is a POST from the dashboard's own pages (never a GET a link or an image could trigger). */
export async function signOutAction(): Promise<void> {
  await assertSameOrigin();
  await endDashboardSession();
  redirect(`${SIGN_IN_PATH}?ended=signed-out`);
}
