/** What the devnet burner wallets call themselves in both connect dialogs. */
export const BURNER_WALLET_NAME = "Burner wallet (devnet)";

// A flame on orange. Base64, as the Wallet Standard requires of wallet icons.
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#ea580c"/>' +
  '<path d="M16.5 5c.8 4.2 6.5 6.6 6.5 12.6A7 7 0 0 1 9 17.6c0-3.1 1.6-5.3 3.3-6.8-.1 2.6.9 3.9 2.1 4.5-.4-4.1.3-7.5 2.1-10.3z" fill="#fff"/>' +
  '<path d="M16 26a3.5 3.5 0 0 1-3.5-3.5c0-2.2 2-3.4 3.1-5.5.6 2.3 3.9 3 3.9 5.5A3.5 3.5 0 0 1 16 26z" fill="#fdba74"/></svg>';

export const BURNER_WALLET_ICON = `data:image/svg+xml;base64,${btoa(SVG)}` as const;
