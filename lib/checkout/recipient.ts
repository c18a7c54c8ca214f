import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/max";
import { z } from "zod";
import type { Product } from "@/lib/catalog";
import { DomainError } from "@/lib/platform/errors";

const email = z.email();

/**
 * Checks the recipient of an item as the product needs it and returns it normalized (E.164 for phones,
 * lower-cased domain for e-mail), or undefined for products without a recipient.
 */
export function validateRecipient(product: Product, input: string | undefined, path: (string | number)[]): string | undefined {
  if (product.recipientType === "none") return undefined;
  if (!input) {
    throw new DomainError(
      "missing_field",
      `required for ${product.slug}: ${product.recipientType === "phone_number" ? "the phone number to top up" : "the recipient's e-mail"}`,
      { path, details: { reason: "missing", recipient: product.recipientType } },
    );
  }
  if (product.recipientType === "email") {
    if (!email.safeParse(input).success)
      throw new DomainError("invalid_recipient", "not a valid e-mail address", { path, details: { reason: "invalid_email" } });
    const at = input.lastIndexOf("@");
    return input.slice(0, at) + input.slice(at).toLowerCase();
  }
  const country = product.country as CountryCode | null;
  const phone = parsePhoneNumberFromString(input, country ? { defaultCountry: country } : undefined);
  if (!phone || !phone.isValid()) {
    throw new DomainError("invalid_phone_number", `not a valid phone number: use international format, like +${phone?.countryCallingCode ?? "1"}…`, {
      path,
      details: { reason: "invalid_phone" },
    });
  }
  if (country && phone.country !== country) {
    throw new DomainError("unsupported_operator", `not a ${country} number: ${product.name} tops up numbers in ${country} only`, {
      path,
      details: { reason: "wrong_country" },
    });
  }
  const e164 = phone.number;
  if (product.phonePrefixes.length > 0 && !product.phonePrefixes.some((p) => e164.startsWith(p))) {
    throw new DomainError("unsupported_operator", `${product.brand} serves numbers starting with ${product.phonePrefixes.slice(0, 6).join(", ")}`, {
      path,
      details: { reason: "operator_prefix" },
    });
  }
  return e164;
}
