import { connection } from "next/server";
import { WalletProviders } from "@/components/wallet/wallet-providers";
import { walletSetup } from "@/lib/payments/wallet-setup";

/** The pages that use a wallet (cart and checkout, invoices, account) share the wallet stack; browse pages do not. */
export default async function WalletLayout({ children }: { children: React.ReactNode }) {
  await connection();
  return <WalletProviders setup={await walletSetup()}>{children}</WalletProviders>;
}
