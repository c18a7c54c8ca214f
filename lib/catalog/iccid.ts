/** The Luhn check digit of a string of digits (ICCIDs and card numbers end with one). */
export function luhnCheckDigit(digits: string): string {
  let sum = 0;
  // Doubling starts at the rightmost digit of the payload: it sits next to the check digit.
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Whether a string of digits ends with its valid Luhn check digit. */
export function isLuhnValid(digits: string): boolean {
  return /^\d{2,}$/.test(digits) && luhnCheckDigit(digits.slice(0, -1)) === digits.slice(-1);
}

/** An eSIM's ICCID: 19 or 20 digits starting 89 (telecom), ending with a valid Luhn check digit. */
export function isIccid(s: string): boolean {
  return /^89\d{17,18}$/.test(s) && isLuhnValid(s);
}
