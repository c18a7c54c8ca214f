"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import type { Country } from "@/lib/catalog";
import { COUNTRY_COOKIE } from "./country-cookie";
import { CountryOptions } from "./country-options";

/** Picks the country to shop for; remembered for a year in a cookie the server reads. */
export function CountrySelect({ countries, value }: { countries: Country[]; value?: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor="country-select" className="text-sm font-medium text-slate-700">
        Shop for
      </label>
      <select
        id="country-select"
        value={value ?? ""}
        disabled={pending}
        onChange={(e) => {
          const code = e.target.value;
          document.cookie = code ? `${COUNTRY_COOKIE}=${code}; path=/; max-age=31536000; samesite=lax` : `${COUNTRY_COOKIE}=; path=/; max-age=0; samesite=lax`;
          startTransition(() => router.refresh());
        }}
        className="h-10 rounded-xl border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm"
      >
        <CountryOptions countries={countries} />
      </select>
    </div>
  );
}
