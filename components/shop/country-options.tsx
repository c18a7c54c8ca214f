import type { Country } from "@/lib/catalog";

/** The options of a country picker: "All countries" first, then each country by name. */
export function CountryOptions({ countries }: { countries: Country[] }) {
  return (
    <>
      <option value="">All countries</option>
      {countries.map((c) => (
        <option key={c.code} value={c.code}>
          {c.name}
        </option>
      ))}
    </>
  );
}
