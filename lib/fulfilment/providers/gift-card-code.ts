import { DIGITS, group, UNAMBIGUOUS, type OrderRandom } from "./deterministic";
import { luhnCheckDigit } from "@/lib/catalog";

/**
 * How a brand's codes look, so a demo code reads like the real thing: length, alphabet, grouping, a fixed first
 * character, a PIN (retail cards carry a card number and a PIN; prepaid cards a card number with a Luhn digit).
 */
type Shape = {
  groups: number[];
  separator: string;
  alphabet: string;
  prefix?: string;
  /** Card numbers: the last digit is a Luhn check digit. */
  luhn?: boolean;
  pinDigits?: number;
};

const alnum = (groups: number[], separator = "-", extra: Partial<Shape> = {}): Shape => ({ groups, separator, alphabet: UNAMBIGUOUS, ...extra });
const cardNumber = (prefix: string, pinDigits: number): Shape => ({ groups: [4, 4, 4, 4], separator: " ", alphabet: DIGITS, prefix, luhn: true, pinDigits });
const RETAIL: Shape = { groups: [4, 4, 4, 4], separator: " ", alphabet: DIGITS, pinDigits: 4 };

/** By brand name as in the catalog; every other brand gets DEFAULT_SHAPE. */
const SHAPES: Record<string, Shape> = {
  Amazon: alnum([4, 6, 4]),
  Steam: alnum([5, 5, 5]),
  Apple: alnum([16], "", { prefix: "X" }),
  "Google Play": alnum([4, 4, 4, 4, 4]),
  PlayStation: alnum([4, 4, 4]),
  Xbox: alnum([5, 5, 5, 5, 5]),
  Microsoft: alnum([5, 5, 5, 5, 5]),
  "Nintendo eShop": alnum([4, 4, 4, 4], " "),
  Roblox: { groups: [3, 3, 4], separator: "-", alphabet: DIGITS },
  "Razer Gold": alnum([5, 5, 5], "-", { pinDigits: 10 }),
  "Visa Prepaid": cardNumber("4", 3),
  "Mastercard Prepaid": cardNumber("5", 3),
  "Test Products": alnum([4, 4, 4, 4], "-", { pinDigits: 4 }),
  ...Object.fromEntries(
    [
      "Walmart",
      "Target",
      "Best Buy",
      "Home Depot",
      "Lowe's",
      "Macy's",
      "Starbucks",
      "Tim Hortons",
      "Canadian Tire",
      "Tesco",
      "Argos",
      "John Lewis",
      "IKEA",
      "H&M",
      "Nike",
      "Sephora",
      "Decathlon",
      "Carrefour",
      "MediaMarkt",
      "Douglas",
      "Fnac",
      "Swiggy",
      "Hotels.com",
      "Flipkart",
      "Myntra",
      "Nykaa",
      "Jarir Bookstore",
      "Woolworths",
      "JB Hi-Fi",
    ].map((brand) => [brand, RETAIL]),
  ),
};

const DEFAULT_SHAPE = alnum([4, 4, 4, 4]);

/** A gift card's code (and PIN where the brand uses one), deterministic for the order. */
export function giftCardCode(brand: string | null, r: OrderRandom): { code: string; pin?: string } {
  const shape = (brand && SHAPES[brand]) || DEFAULT_SHAPE;
  const length = shape.groups.reduce((a, b) => a + b, 0);
  const prefix = shape.prefix ?? "";
  let body = prefix + r.chars("code", length - prefix.length - (shape.luhn ? 1 : 0), shape.alphabet);
  if (shape.luhn) body += luhnCheckDigit(body);
  const code = group(body, shape.groups, shape.separator);
  return shape.pinDigits ? { code, pin: r.digits("pin", shape.pinDigits) } : { code };
}
