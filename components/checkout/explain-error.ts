import { ShopApiError } from "./shop-api";

/** What went wrong, in words for the shopper, and whether trying again may help. */
export function explainError(err: unknown): string {
  const e = err as { code?: unknown; name?: string; message?: string; cause?: unknown; shortMessage?: string } | null;
  const text = `${e?.name ?? ""} ${e?.shortMessage ?? ""} ${e?.message ?? ""}`;
  if (e?.code === 4001 || /UserRejected|rejected|denied|declined|cancell?ed/i.test(text)) {
    return "You declined the request in your wallet. Nothing was signed and nothing was paid.";
  }
  if (err instanceof ShopApiError) {
    if (err.status === 404) return "This invoice has expired or does not exist. Create a new one from your cart.";
    if (err.status === 409) return "This invoice is already paid or being paid: its status below shows how it goes.";
    if (err.status === 402) return `The payment was not accepted: ${err.message} Check that the wallet holds enough USDC on this network.`;
    if (err.status === 401) return "Your sign-in has expired: sign in again.";
    return err.message;
  }
  if (e?.code === 4902 || /switch.*chain|chain.*not.*(added|configured|supported)|wrong network/i.test(text)) {
    return "Your wallet did not switch to the network you chose. Switch it in the wallet, or pick another network.";
  }
  if (err instanceof TypeError && /fetch|network/i.test(text)) return "The shop could not be reached. Check your connection and try again.";
  return e?.shortMessage ?? e?.message ?? "Something went wrong. Try again.";
}
