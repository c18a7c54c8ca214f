/**
 * The demo catalog as compact tables: countries, gift card brands, eSIM destinations and regions, and mobile
 * operators. `generate.ts` expands these into products. Every currency here is one of `../fx-rates.json`.
 *
 * Country lists are written as space-separated ISO 3166-1 alpha-2 codes, most important market first
 * (product popularity falls off a little along the list).
 */

export type Colors = { bg: string; fg: string };

/** Splits "US GB DE" into ["US", "GB", "DE"]. */
export const codes = (list: string): string[] => list.trim().split(/\s+/).filter(Boolean);

// ---------------------------------------------------------------------------------------------------------------
// Countries
// ---------------------------------------------------------------------------------------------------------------

export type Country = {
  code: string;
  name: string;
  /** How product names and top-up slugs write the country ("UK" for GB); defaults to `name`. */
  short?: string;
  /** The name takes "the" in a sentence ("in the United States"). */
  the?: true;
  /**
   * The currency products for this country are sold in: the local one where the FX table has it, otherwise
   * US dollars (the usual currency for international top-ups to the Caribbean and Central America).
   */
  currency: string;
};

// prettier-ignore
export const COUNTRIES: Country[] = [
  { code: "US", name: "United States", short: "US", the: true, currency: "USD" },
  { code: "GB", name: "United Kingdom", short: "UK", the: true, currency: "GBP" },
  { code: "DE", name: "Germany", currency: "EUR" },
  { code: "FR", name: "France", currency: "EUR" },
  { code: "IT", name: "Italy", currency: "EUR" },
  { code: "ES", name: "Spain", currency: "EUR" },
  { code: "NL", name: "Netherlands", the: true, currency: "EUR" },
  { code: "BE", name: "Belgium", currency: "EUR" },
  { code: "AT", name: "Austria", currency: "EUR" },
  { code: "IE", name: "Ireland", currency: "EUR" },
  { code: "PT", name: "Portugal", currency: "EUR" },
  { code: "FI", name: "Finland", currency: "EUR" },
  { code: "GR", name: "Greece", currency: "EUR" },
  { code: "SK", name: "Slovakia", currency: "EUR" },
  { code: "CH", name: "Switzerland", currency: "CHF" },
  { code: "SE", name: "Sweden", currency: "SEK" },
  { code: "NO", name: "Norway", currency: "NOK" },
  { code: "DK", name: "Denmark", currency: "DKK" },
  { code: "PL", name: "Poland", currency: "PLN" },
  { code: "CZ", name: "Czechia", currency: "CZK" },
  { code: "HU", name: "Hungary", currency: "HUF" },
  { code: "RO", name: "Romania", currency: "RON" },
  { code: "BG", name: "Bulgaria", currency: "BGN" },
  { code: "TR", name: "Türkiye", currency: "TRY" },
  { code: "UA", name: "Ukraine", currency: "UAH" },
  { code: "IL", name: "Israel", currency: "ILS" },
  { code: "IS", name: "Iceland", currency: "USD" },
  { code: "CA", name: "Canada", currency: "CAD" },
  { code: "MX", name: "Mexico", currency: "MXN" },
  { code: "BR", name: "Brazil", currency: "BRL" },
  { code: "AR", name: "Argentina", currency: "ARS" },
  { code: "CL", name: "Chile", currency: "CLP" },
  { code: "CO", name: "Colombia", currency: "COP" },
  { code: "PE", name: "Peru", currency: "PEN" },
  { code: "GT", name: "Guatemala", currency: "USD" },
  { code: "DO", name: "Dominican Republic", the: true, currency: "USD" },
  { code: "JM", name: "Jamaica", currency: "USD" },
  { code: "HT", name: "Haiti", currency: "USD" },
  { code: "AU", name: "Australia", currency: "AUD" },
  { code: "NZ", name: "New Zealand", currency: "NZD" },
  { code: "JP", name: "Japan", currency: "JPY" },
  { code: "KR", name: "South Korea", currency: "KRW" },
  { code: "CN", name: "China", currency: "CNY" },
  { code: "HK", name: "Hong Kong", currency: "HKD" },
  { code: "TW", name: "Taiwan", currency: "TWD" },
  { code: "SG", name: "Singapore", currency: "SGD" },
  { code: "MY", name: "Malaysia", currency: "MYR" },
  { code: "TH", name: "Thailand", currency: "THB" },
  { code: "ID", name: "Indonesia", currency: "IDR" },
  { code: "PH", name: "Philippines", the: true, currency: "PHP" },
  { code: "VN", name: "Vietnam", currency: "VND" },
  { code: "IN", name: "India", currency: "INR" },
  { code: "LK", name: "Sri Lanka", currency: "USD" },
  { code: "PK", name: "Pakistan", currency: "PKR" },
  { code: "BD", name: "Bangladesh", currency: "BDT" },
  { code: "AE", name: "United Arab Emirates", short: "UAE", the: true, currency: "AED" },
  { code: "SA", name: "Saudi Arabia", currency: "SAR" },
  { code: "QA", name: "Qatar", currency: "QAR" },
  { code: "KW", name: "Kuwait", currency: "KWD" },
  { code: "EG", name: "Egypt", currency: "EGP" },
  { code: "MA", name: "Morocco", currency: "MAD" },
  { code: "NG", name: "Nigeria", currency: "NGN" },
  { code: "GH", name: "Ghana", currency: "GHS" },
  { code: "KE", name: "Kenya", currency: "KES" },
  { code: "ZA", name: "South Africa", currency: "ZAR" },
];

// ---------------------------------------------------------------------------------------------------------------
// Gift card denominations
// ---------------------------------------------------------------------------------------------------------------

/** Denomination ladders: "low" for games, apps and streaming, "std" for retail, "high" for travel and prepaid cards. */
export type Tier = "low" | "std" | "high";

// prettier-ignore
export const DENOMINATIONS: Record<string, Record<Tier, number[]>> = {
  USD: { low: [10, 20, 25, 50, 100], std: [25, 50, 100, 200], high: [50, 100, 250, 500] },
  EUR: { low: [10, 15, 25, 50, 100], std: [15, 25, 50, 100], high: [50, 100, 250, 500] },
  GBP: { low: [5, 10, 15, 25, 50], std: [10, 25, 50, 100], high: [50, 100, 250] },
  CHF: { low: [10, 20, 50, 100], std: [20, 50, 100, 200], high: [50, 100, 200, 500] },
  SEK: { low: [100, 200, 500], std: [200, 500, 1000], high: [500, 1000, 2500] },
  NOK: { low: [100, 200, 500], std: [200, 500, 1000], high: [500, 1000, 2500] },
  DKK: { low: [100, 200, 500], std: [200, 500, 1000], high: [500, 1000, 2000] },
  PLN: { low: [20, 50, 100, 200], std: [50, 100, 200, 500], high: [100, 200, 500, 1000] },
  CZK: { low: [250, 500, 1000, 2000], std: [500, 1000, 2000], high: [1000, 2500, 5000] },
  HUF: { low: [2500, 5000, 10000, 20000], std: [5000, 10000, 20000], high: [10000, 25000, 50000] },
  RON: { low: [25, 50, 100, 200], std: [50, 100, 250, 500], high: [100, 250, 500, 1000] },
  BGN: { low: [10, 20, 50, 100], std: [20, 50, 100, 200], high: [50, 100, 200, 500] },
  TRY: { low: [100, 250, 500, 1000], std: [250, 500, 1000, 2000], high: [1000, 2500, 5000] },
  UAH: { low: [200, 500, 1000, 2000], std: [500, 1000, 2000, 5000], high: [1000, 2500, 5000, 10000] },
  ILS: { low: [50, 100, 200, 500], std: [100, 200, 500, 1000], high: [200, 500, 1000, 2000] },
  CAD: { low: [15, 25, 50, 100], std: [25, 50, 100, 200], high: [50, 100, 250, 500] },
  MXN: { low: [100, 200, 300, 500, 1000], std: [200, 500, 1000, 2000], high: [500, 1000, 2500, 5000] },
  BRL: { low: [25, 50, 100, 200], std: [50, 100, 200, 500], high: [100, 250, 500, 1000] },
  ARS: { low: [5000, 10000, 20000, 50000], std: [10000, 25000, 50000], high: [25000, 50000, 100000] },
  CLP: { low: [5000, 10000, 20000, 50000], std: [10000, 20000, 50000], high: [25000, 50000, 100000] },
  COP: { low: [20000, 50000, 100000, 200000], std: [50000, 100000, 200000], high: [100000, 250000, 500000] },
  PEN: { low: [30, 50, 100, 200], std: [50, 100, 200, 500], high: [100, 250, 500, 1000] },
  AUD: { low: [20, 30, 50, 100], std: [25, 50, 100, 200], high: [50, 100, 250, 500] },
  NZD: { low: [20, 30, 50, 100], std: [25, 50, 100, 200], high: [50, 100, 250, 500] },
  JPY: { low: [1000, 3000, 5000, 10000], std: [3000, 5000, 10000, 20000], high: [5000, 10000, 30000, 50000] },
  KRW: { low: [10000, 30000, 50000, 100000], std: [30000, 50000, 100000], high: [50000, 100000, 300000] },
  CNY: { low: [50, 100, 200, 500], std: [100, 200, 500, 1000], high: [500, 1000, 2000] },
  HKD: { low: [100, 200, 500], std: [200, 500, 1000], high: [500, 1000, 2000] },
  TWD: { low: [300, 500, 1000, 2000], std: [500, 1000, 2000, 3000], high: [1000, 3000, 5000] },
  SGD: { low: [10, 20, 50, 100], std: [20, 50, 100, 200], high: [50, 100, 200, 500] },
  MYR: { low: [20, 50, 100, 200], std: [50, 100, 200, 500], high: [100, 250, 500, 1000] },
  THB: { low: [150, 300, 500, 1000], std: [300, 500, 1000, 2000], high: [1000, 2000, 5000] },
  IDR: { low: [50000, 100000, 200000, 500000], std: [100000, 250000, 500000, 1000000], high: [500000, 1000000, 2500000] },
  PHP: { low: [250, 500, 1000, 2000], std: [500, 1000, 2000, 5000], high: [1000, 2500, 5000, 10000] },
  VND: { low: [100000, 200000, 500000], std: [200000, 500000, 1000000], high: [500000, 1000000, 2000000] },
  INR: { low: [100, 250, 500, 1000], std: [500, 1000, 2000, 5000], high: [1000, 2500, 5000, 10000] },
  PKR: { low: [500, 1000, 2500, 5000], std: [1000, 2500, 5000, 10000], high: [5000, 10000, 25000] },
  BDT: { low: [500, 1000, 2000], std: [1000, 2000, 5000], high: [2000, 5000, 10000] },
  AED: { low: [25, 50, 100, 200], std: [50, 100, 250, 500], high: [100, 250, 500, 1000] },
  SAR: { low: [25, 50, 100, 200], std: [50, 100, 250, 500], high: [100, 250, 500, 1000] },
  QAR: { low: [25, 50, 100, 200], std: [50, 100, 250, 500], high: [100, 250, 500, 1000] },
  KWD: { low: [5, 10, 20, 50], std: [10, 20, 50, 100], high: [20, 50, 100, 200] },
  EGP: { low: [100, 200, 500, 1000], std: [200, 500, 1000, 2000], high: [1000, 2000, 5000] },
  MAD: { low: [50, 100, 200, 500], std: [100, 200, 500, 1000], high: [200, 500, 1000, 2000] },
  NGN: { low: [5000, 10000, 20000, 50000], std: [10000, 20000, 50000, 100000], high: [25000, 50000, 100000, 200000] },
  KES: { low: [500, 1000, 2000, 5000], std: [1000, 2500, 5000, 10000], high: [2500, 5000, 10000, 20000] },
  GHS: { low: [50, 100, 200, 500], std: [100, 200, 500, 1000], high: [200, 500, 1000, 2000] },
  ZAR: { low: [100, 200, 500, 1000], std: [200, 500, 1000, 2000], high: [500, 1000, 2000, 5000] },
};

// ---------------------------------------------------------------------------------------------------------------
// Gift card brands
// ---------------------------------------------------------------------------------------------------------------

export type GiftBrand = {
  /** The brand as shoppers know it. */
  name: string;
  /** Slug stem; defaults to the name in lower-case words ("google-play"). */
  slug?: string;
  /** What the card is called, before the country: "Steam Wallet Card" gives "Steam Wallet Card Germany". */
  product: string;
  categories: string[];
  /** Where it is sold, most important market first. */
  countries: string;
  tier: Tier;
  /** Denominations by currency where the brand's own differ from the tier's ladder. */
  denoms?: Record<string, number[]>;
  /** In-game currency packs instead of money amounts: [label, US price]; other currencies get a local price. */
  packs?: [label: string, usd: number][];
  /** Open amount for brands that sell any value, in US-dollar terms; scaled to each currency. */
  range?: [minUsd: number, maxUsd: number];
  /** Where it is redeemed: "{cc}" is the lower-case country code; per-country exceptions by code. */
  domain: string | { default: string; [code: string]: string };
  /** Placeholders: {brand}, {country} (English name, with "the" where it takes one), {domain}, {currency}. */
  description: string;
  redemption: string;
  recipient?: "email";
  /** 0-1000. */
  popularity: number;
  colors: Colors;
};

const RETAIL_REDEEM =
  "1. Online: add your items to the basket on {domain} and choose gift card at checkout.\n" +
  "2. Enter the card number and PIN shown on your code.\n" +
  "3. In store: show the code on your phone at the till; the cashier scans or types it in.\n" +
  "Any unspent balance stays on the card for your next purchase.";

const FOOD_REDEEM =
  "1. Open the {brand} app or {domain} and sign in.\n" +
  "2. Go to Account > Gift cards (or Payment > Add gift card) and enter the code.\n" +
  "3. The credit is added to your account and used on your next order before your card is charged.";

// prettier-ignore
export const GIFT_BRANDS: GiftBrand[] = [
  // --- The big digital brands ---------------------------------------------------------------------------------
  {
    name: "Amazon", product: "Amazon Gift Card", categories: ["shopping", "electronics", "home"],
    countries: "US GB DE FR IT ES CA JP AU IN MX BR AE SA NL SE PL TR SG", tier: "std", range: [1, 2000],
    domain: {
      default: "amazon.com", GB: "amazon.co.uk", DE: "amazon.de", FR: "amazon.fr", IT: "amazon.it", ES: "amazon.es",
      CA: "amazon.ca", JP: "amazon.co.jp", AU: "amazon.com.au", IN: "amazon.in", MX: "amazon.com.mx", BR: "amazon.com.br",
      AE: "amazon.ae", SA: "amazon.sa", NL: "amazon.nl", SE: "amazon.se", PL: "amazon.pl", TR: "amazon.com.tr", SG: "amazon.sg",
    },
    description: "Shop hundreds of millions of items on {domain}, from books and electronics to groceries and Kindle e-books. This card is for shoppers in {country}: it carries a balance in {currency} that does not expire.",
    redemption: "1. Sign in at {domain}/redeem (or open the Amazon app and go to Your Account > Gift cards).\n2. Enter the claim code and select Apply to Your Balance.\n3. The balance is used automatically on eligible orders at checkout.\nThe card works only on {domain}; it cannot be used on other Amazon stores.",
    popularity: 1000, colors: { bg: "#232F3E", fg: "#FF9900" },
  },
  {
    name: "Steam", product: "Steam Wallet Card", categories: ["gaming", "entertainment"],
    countries: "US GB DE FR IT ES NL PL BR CA AU JP KR IN ID MY PH SG TH VN TW HK MX CL CO PE AE SA ZA NO CH UA NZ",
    tier: "low", denoms: { USD: [5, 10, 20, 50, 100], EUR: [5, 10, 25, 50, 100], GBP: [5, 10, 20, 50, 100] },
    domain: "store.steampowered.com",
    description: "Add funds to a Steam Wallet and spend them on PC games, downloadable content, in-game items and hardware such as the Steam Deck. For Steam accounts in {country}; the wallet is credited in {currency}.",
    redemption: "1. Sign in to Steam in the desktop app or at {domain}.\n2. Open your account name > Account details > Add funds to your Steam Wallet > Redeem a Steam Gift Card or Wallet Code.\n3. Enter the code and select Continue. The funds show in your wallet at once.\nThe code can only be added to an account whose store region is {country}.",
    popularity: 980, colors: { bg: "#171A21", fg: "#66C0F4" },
  },
  {
    name: "Apple", product: "Apple Gift Card", categories: ["entertainment", "music", "electronics", "gaming"],
    countries: "US GB DE FR IT ES NL CA AU JP KR CN HK TW SG MY TH IN ID PH AE SA MX BR CH SE NO DK PL TR NZ",
    tier: "low", denoms: { USD: [10, 25, 50, 100, 200], GBP: [10, 15, 25, 50, 100], EUR: [10, 15, 25, 50, 100] }, range: [10, 500],
    domain: { default: "apple.com/{cc}", US: "apple.com", GB: "apple.com/uk", CN: "apple.com.cn" },
    description: "One card for everything Apple: apps and games on the App Store, iCloud+ storage, Apple Music, Apple TV+, Apple Arcade, or products and accessories from {domain} and Apple Store locations in {country}. Formerly the iTunes card.",
    redemption: "1. On iPhone or iPad, open the App Store, tap your photo at the top, then Redeem Gift Card or Code.\n2. Tap Enter Code Manually, type the 16-character code starting with X, and tap Redeem.\n3. On a Mac, open the App Store, click your name, then Redeem Gift Card.\nThe balance goes to an Apple Account whose country or region is {country}.",
    popularity: 970, colors: { bg: "#1D1D1F", fg: "#FFFFFF" },
  },
  {
    name: "Google Play", product: "Google Play Gift Code", categories: ["gaming", "entertainment", "music"],
    countries: "US GB DE FR IT ES NL AT BE PL CA AU JP KR IN ID TH PH MY SG TW HK MX BR TR AE SA EG ZA",
    tier: "low", denoms: { USD: [10, 15, 25, 50, 100], INR: [100, 300, 500, 1000, 1500] }, range: [5, 500],
    domain: "play.google.com/redeem",
    description: "Credit for apps, games, in-app purchases, e-books and subscriptions such as YouTube Premium and Google One on Google Play. Only for Google accounts in {country}; the balance is in {currency}.",
    redemption: "1. On your Android phone, open the Google Play Store app.\n2. Tap your profile icon > Payments & subscriptions > Redeem code.\n3. Enter the code and tap Redeem. On a computer, go to {domain} instead.\nThe code only works with a Google Play country set to {country}.",
    popularity: 960, colors: { bg: "#01875F", fg: "#FFFFFF" },
  },
  {
    name: "Netflix", product: "Netflix Gift Card", categories: ["streaming", "entertainment"],
    countries: "US GB DE FR IT ES NL AT BE CA AU NZ JP MX BR CL CO PE PL SE NO DK TR IN",
    tier: "low", denoms: { USD: [25, 30, 50, 60, 100], EUR: [15, 25, 50], GBP: [15, 25, 50], INR: [500, 1000, 1500, 2000] },
    domain: "netflix.com/redeem",
    description: "Pay for Netflix with no credit card: the card's value is applied to a Netflix membership in {country} month by month until it runs out. Works with every plan.",
    redemption: "1. Go to {domain} (on a computer or phone browser; not in the TV app).\n2. Sign in, or create an account if you are new to Netflix.\n3. Enter the code from your gift card and select Redeem.\nThe balance pays your monthly bill until it is used up; you can check what is left under Account > Membership.",
    popularity: 940, colors: { bg: "#E50914", fg: "#FFFFFF" },
  },
  {
    name: "PlayStation", product: "PlayStation Store Gift Card", categories: ["gaming", "entertainment"],
    countries: "US GB DE FR IT ES NL AT BE PL SE NO DK CH CA AU NZ JP KR HK TW SG MY TH ID IN AE SA KW QA TR MX BR CL CO PE ZA",
    tier: "low", denoms: { USD: [10, 25, 50, 75, 100], GBP: [5, 10, 20, 25, 35, 50], EUR: [10, 20, 25, 50, 100] },
    domain: "store.playstation.com",
    description: "Top up your PlayStation Network wallet for PS5 and PS4 games, add-ons, PlayStation Plus memberships and films on the PlayStation Store for {country}.",
    redemption: "1. On PS5: go to PlayStation Store, select ... (more) at the top > Redeem codes and add-ons.\n2. On PS4: go to PlayStation Store > Redeem codes.\n3. Or sign in at {domain}, select your avatar > Redeem codes.\nEnter the 12-character code; the funds are added to your wallet. Your PlayStation account must be registered in {country}.",
    popularity: 950, colors: { bg: "#003791", fg: "#FFFFFF" },
  },
  {
    name: "Xbox", product: "Xbox Gift Card", categories: ["gaming", "entertainment"],
    countries: "US GB DE FR IT ES NL PL SE CA AU NZ JP KR BR MX CL CO SA AE TR ZA",
    tier: "low", denoms: { USD: [15, 25, 50, 100], GBP: [10, 15, 25, 50], EUR: [10, 15, 25, 50, 100] },
    domain: "redeem.microsoft.com",
    description: "Buy games, add-ons, Game Pass memberships, films and apps for Xbox Series X|S, Xbox One and Windows from the Microsoft Store in {country}.",
    redemption: "1. On your console, press the Xbox button, go to Store, then Redeem.\n2. On a PC or phone, sign in to your Microsoft account at {domain}.\n3. Enter the 25-character code and confirm.\nThe balance is added to the Microsoft account and can be used on the Xbox and Microsoft Store in {country}.",
    popularity: 900, colors: { bg: "#107C10", fg: "#FFFFFF" },
  },
  {
    name: "Nintendo eShop", slug: "nintendo-eshop", product: "Nintendo eShop Card", categories: ["gaming", "entertainment"],
    countries: "US GB DE FR IT ES NL CA AU NZ JP HK MX",
    tier: "low", denoms: { USD: [10, 20, 35, 50, 70, 99], EUR: [15, 25, 50], GBP: [15, 25, 50], JPY: [1000, 3000, 5000, 9000] },
    domain: "nintendo.com",
    description: "Add funds to a Nintendo Account for Nintendo Switch games, DLC and Nintendo Switch Online memberships from the Nintendo eShop in {country}.",
    redemption: "1. On Nintendo Switch, open Nintendo eShop from the HOME Menu and select your user.\n2. Scroll down the left menu to Redeem Code.\n3. Enter the 16-character download code and select OK.\nThe funds are added to your Nintendo Account; the account's country must be {country}.",
    popularity: 860, colors: { bg: "#E60012", fg: "#FFFFFF" },
  },
  {
    name: "Spotify", product: "Spotify Premium Gift Card", categories: ["music", "streaming", "entertainment"],
    countries: "US GB DE FR IT ES NL SE NO DK PL CA AU NZ MX BR",
    tier: "low", denoms: { USD: [10, 30, 60, 99], EUR: [10, 30, 60], GBP: [10, 30, 60] },
    domain: "spotify.com/redeem",
    description: "Months of Spotify Premium: ad-free music and podcasts, offline listening and unlimited skips. The card's value is used for Premium Individual in {country}.",
    redemption: "1. Go to {domain} in a web browser.\n2. Log in, or sign up for a free account.\n3. Enter the code from your card and select Redeem.\nYour Premium months start straight away; an existing subscription is paid from the card first.",
    popularity: 820, colors: { bg: "#1DB954", fg: "#000000" },
  },
  {
    name: "Roblox", product: "Roblox Gift Card", categories: ["gaming", "entertainment"],
    countries: "US GB DE FR IT ES CA AU NZ MX BR PH",
    tier: "low", denoms: { USD: [10, 15, 25, 50, 100, 200] },
    domain: "roblox.com/redeem",
    description: "Get Robux or a Roblox Premium subscription, plus an exclusive virtual item with every card. For Roblox accounts in {country}.",
    redemption: "1. Log in to your Roblox account at {domain} in a browser.\n2. Enter the code from your card and select Redeem.\n3. Spend the credit on Robux or Premium, and collect the bonus item shown on the redeem page.",
    popularity: 880, colors: { bg: "#232527", fg: "#FFFFFF" },
  },
  {
    name: "Razer Gold", product: "Razer Gold PIN", categories: ["gaming"],
    countries: "US SG MY ID PH TH VN TR BR MX CL CO PE AE SA IN", tier: "low",
    domain: "gold.razer.com",
    description: "Razer Gold is the gaming credit accepted in thousands of games and game stores, including Free Fire, PUBG Mobile, Mobile Legends and Genshin Impact. Earn Razer Silver rewards with every purchase. Issued for {country}.",
    redemption: "1. Sign in to your Razer ID at {domain}.\n2. Choose Reload > Razer Gold PIN and enter the PIN.\n3. The Razer Gold is added to your wallet; pay with it in any supported game or store.",
    popularity: 640, colors: { bg: "#000000", fg: "#44D62C" },
  },
  {
    name: "Microsoft", product: "Microsoft Gift Card", categories: ["electronics", "gaming", "entertainment"],
    countries: "US GB DE FR CA AU JP", tier: "low",
    domain: "redeem.microsoft.com",
    description: "Spend on apps, games, films and devices in the Microsoft Store, or pay for Microsoft 365 and Xbox Game Pass. For Microsoft accounts in {country}.",
    redemption: "1. Go to {domain} and sign in with your Microsoft account.\n2. Enter the 25-character code and select Next.\n3. Confirm, and the balance is added to your Microsoft account.",
    popularity: 600, colors: { bg: "#2F2F2F", fg: "#FFFFFF" },
  },
  {
    name: "Twitch", product: "Twitch Gift Card", categories: ["gaming", "streaming", "entertainment"],
    countries: "US GB DE FR CA", tier: "low",
    domain: "twitch.tv/redeem",
    description: "Support your favourite streamers: use the balance for subscriptions, gift subs and Bits on Twitch.",
    redemption: "1. Sign in at {domain}.\n2. Enter the code and select Redeem.\n3. Spend the balance on subs, gift subs or Bits from any channel.",
    popularity: 420, colors: { bg: "#9146FF", fg: "#FFFFFF" },
  },
  {
    name: "Disney+", slug: "disney-plus", product: "Disney+ Subscription", categories: ["streaming", "entertainment"],
    countries: "US GB DE FR IT ES CA AU", tier: "low",
    packs: [["1 Month Premium", 15.99], ["12 Months Premium", 159.99]],
    domain: "disneyplus.com/redeem",
    description: "Stream Disney, Pixar, Marvel, Star Wars and National Geographic in 4K, ad-free, on up to four screens at once. A Premium subscription for Disney+ in {country}.",
    redemption: "1. Go to {domain}.\n2. Enter the code, then log in or create your Disney+ account.\n3. Your subscription starts at once; it does not renew automatically when it ends.",
    popularity: 700, colors: { bg: "#0B1C5C", fg: "#FFFFFF" },
  },
  {
    name: "Hulu", product: "Hulu Gift Card", categories: ["streaming", "entertainment"],
    countries: "US", tier: "low", denoms: { USD: [25, 50, 100] },
    domain: "hulu.com/gift",
    description: "Pay for any Hulu plan, including Hulu + Live TV, with a gift card. For Hulu accounts in the United States.",
    redemption: "1. Go to {domain} and sign in.\n2. Enter the gift card code.\n3. The balance pays your subscription until it runs out.",
    popularity: 380, colors: { bg: "#1CE783", fg: "#0B0C0F" },
  },
  {
    name: "YouTube Premium", product: "YouTube Premium", categories: ["streaming", "music", "entertainment"],
    countries: "US GB DE FR CA AU", tier: "low",
    packs: [["1 Month Individual", 13.99], ["3 Months Individual", 41.99], ["12 Months Individual", 139.99]],
    domain: "youtube.com/redeem",
    description: "YouTube and YouTube Music without ads, with background play and downloads. A prepaid Individual membership for {country} that does not renew on its own.",
    redemption: "1. Go to {domain} and sign in with the Google account you want to upgrade.\n2. Enter the code and select Redeem.\n3. Premium is active at once for the months on your code.",
    popularity: 560, colors: { bg: "#CC0000", fg: "#FFFFFF" },
  },
  {
    name: "Crunchyroll", product: "Crunchyroll Gift Card", categories: ["streaming", "entertainment"],
    countries: "US GB DE FR CA AU BR MX", tier: "low",
    domain: "crunchyroll.com/redeem",
    description: "Months of Crunchyroll Premium: the world's largest anime library, new episodes soon after Japan, no ads.",
    redemption: "1. Go to {domain} and log in.\n2. Enter the code and select Redeem.\n3. Your Premium membership starts straight away.",
    popularity: 330, colors: { bg: "#F47521", fg: "#1A1A1A" },
  },
  {
    name: "Deezer", product: "Deezer Premium Gift Card", categories: ["music", "streaming"],
    countries: "FR DE BR", tier: "low",
    domain: "deezer.com/redeem",
    description: "Deezer Premium: over 120 million tracks without ads, offline and in high quality, with Flow personalised to you.",
    redemption: "1. Go to {domain} and sign in or create an account.\n2. Enter the code and confirm.\n3. Premium starts at once for the length on your card.",
    popularity: 160, colors: { bg: "#A238FF", fg: "#FFFFFF" },
  },
  // --- Games --------------------------------------------------------------------------------------------------
  {
    name: "Fortnite V-Bucks", slug: "fortnite", product: "Fortnite V-Bucks Card", categories: ["gaming"],
    countries: "US GB DE FR IT ES CA AU BR MX PL", tier: "low",
    packs: [["1,000 V-Bucks", 8.99], ["2,800 V-Bucks", 22.99], ["5,000 V-Bucks", 36.99], ["13,500 V-Bucks", 89.99]],
    domain: "fortnite.com/vbuckscard",
    description: "V-Bucks for Fortnite: outfits, emotes, the Battle Pass and more from the Item Shop. Works on every platform except where the store forbids outside currency. Priced for {country}.",
    redemption: "1. Go to {domain} and sign in to your Epic Games account.\n2. Enter the code and choose the platform to add the V-Bucks to.\n3. The V-Bucks show in Fortnite the next time you start the game.",
    popularity: 780, colors: { bg: "#2B1B5E", fg: "#F5D130" },
  },
  {
    name: "League of Legends", product: "League of Legends RP", categories: ["gaming"],
    countries: "US GB DE FR ES PL TR BR MX KR", tier: "low",
    packs: [["575 RP", 4.99], ["1,380 RP", 10.99], ["2,800 RP", 21.99], ["4,500 RP", 34.99], ["6,500 RP", 49.99], ["13,500 RP", 99.99]],
    domain: "leagueoflegends.com",
    description: "Riot Points for League of Legends: champions, skins, chromas and passes. For Riot accounts on a server that serves {country}.",
    redemption: "1. Start the League of Legends client and sign in.\n2. Open the Store > Get RP > Prepaid cards and codes.\n3. Enter the code. The RP appear in your account straight away.",
    popularity: 520, colors: { bg: "#091428", fg: "#C8AA6E" },
  },
  {
    name: "Valorant", product: "Valorant Points", categories: ["gaming"],
    countries: "US GB DE FR TR BR MX JP KR SG", tier: "low",
    packs: [["475 VP", 4.99], ["1,000 VP", 9.99], ["2,050 VP", 19.99], ["3,650 VP", 34.99], ["5,350 VP", 49.99], ["11,000 VP", 99.99]],
    domain: "playvalorant.com",
    description: "Valorant Points for weapon skins, agents and the Battle Pass in Riot's tactical shooter. For Riot accounts in {country}.",
    redemption: "1. Start Valorant and sign in.\n2. Select the VP icon at the top right > Prepaid cards and codes.\n3. Enter the code; the VP are added at once.",
    popularity: 500, colors: { bg: "#FF4655", fg: "#0F1923" },
  },
  {
    name: "Free Fire", product: "Free Fire Diamonds", categories: ["gaming"],
    countries: "BR MX ID TH VN PH MY PK BD SA AE CO", tier: "low",
    packs: [["100 Diamonds", 0.99], ["310 Diamonds", 2.99], ["520 Diamonds", 4.99], ["1,060 Diamonds", 9.99], ["2,180 Diamonds", 19.99], ["5,600 Diamonds", 49.99]],
    domain: "shop.garena.sg",
    description: "Diamonds for Garena Free Fire and Free Fire MAX: characters, pets, skins and the Elite Pass. For players in {country}.",
    redemption: "1. Go to the Garena top-up centre at {domain} and choose Free Fire.\n2. Log in with the account linked to your game (Facebook, Google or VK) or enter your player ID.\n3. Select Redeem, enter the code, and the diamonds are credited in the game within minutes.",
    popularity: 560, colors: { bg: "#F7A500", fg: "#1A1A1A" },
  },
  {
    name: "PUBG Mobile", product: "PUBG Mobile UC", categories: ["gaming"],
    countries: "US GB TR AE SA PK MY ID PH TH EG", tier: "low",
    packs: [["60 UC", 0.99], ["325 UC", 4.99], ["660 UC", 9.99], ["1,800 UC", 24.99], ["3,850 UC", 49.99], ["8,100 UC", 99.99]],
    domain: "midasbuy.com",
    description: "Unknown Cash (UC) for PUBG Mobile: the Royale Pass, outfits, weapon finishes and crates. For players in {country}.",
    redemption: "1. Go to {domain} and choose PUBG Mobile.\n2. Enter your player ID (in the game under your profile) and select Redeem.\n3. Enter the code; the UC arrive in your in-game mailbox within a few minutes.",
    popularity: 540, colors: { bg: "#1A1A1A", fg: "#F2A900" },
  },
  {
    name: "Battle.net", slug: "battle-net", product: "Blizzard Balance Card", categories: ["gaming"],
    countries: "US GB DE FR KR", tier: "low",
    domain: "battle.net/account/balance",
    description: "Blizzard Balance for World of Warcraft, Diablo IV, Overwatch 2, Hearthstone and Call of Duty on Battle.net in {country}.",
    redemption: "1. Open the Battle.net app and sign in.\n2. Select your account name > Redeem a code (or go to {domain}).\n3. Enter the code; the balance is added at once.",
    popularity: 300, colors: { bg: "#0E1B2B", fg: "#148EFF" },
  },
  // --- Ride hailing, food delivery, travel --------------------------------------------------------------------
  {
    name: "Uber", product: "Uber Gift Card", categories: ["ride-hailing", "food", "travel"],
    countries: "US GB CA AU MX BR FR DE NL IN ZA", tier: "low",
    domain: "uber.com",
    description: "Uber credit for rides and Uber Eats orders in {country}. Added to the Uber account as Uber Cash in {currency}.",
    redemption: "1. Open the Uber app and tap Account > Wallet.\n2. Tap Add funds > Gift card (or Redeem gift card).\n3. Enter the code. The Uber Cash is used first on your next ride or Uber Eats order.",
    popularity: 760, colors: { bg: "#000000", fg: "#FFFFFF" },
  },
  {
    name: "Uber Eats", product: "Uber Eats Gift Card", categories: ["food"],
    countries: "US GB CA AU FR MX JP", tier: "low",
    domain: "ubereats.com",
    description: "Order from thousands of restaurants and grocery shops with Uber Eats in {country}. Also pays for Uber rides.",
    redemption: FOOD_REDEEM,
    popularity: 620, colors: { bg: "#06C167", fg: "#000000" },
  },
  {
    name: "Lyft", product: "Lyft Gift Card", categories: ["ride-hailing", "travel"],
    countries: "US CA", tier: "low",
    domain: "lyft.com",
    description: "Ride credit for Lyft in {country}: rides, bikes and scooters.",
    redemption: "1. Open the Lyft app and tap the menu > Payment.\n2. Tap Add gift card and enter the code.\n3. The credit is used on your next ride.",
    popularity: 300, colors: { bg: "#FF00BF", fg: "#000000" },
  },
  {
    name: "Grab", product: "Grab Gift Card", categories: ["ride-hailing", "food", "groceries"],
    countries: "SG MY TH ID PH VN", tier: "low",
    domain: "grab.com",
    description: "GrabPay credit for rides, GrabFood, GrabMart and payments at shops across {country}.",
    redemption: "1. Open the Grab app and tap Payment > GrabPay Wallet.\n2. Tap Top up > Gift card and enter the code.\n3. The balance is available at once.",
    popularity: 460, colors: { bg: "#00804A", fg: "#FFFFFF" },
  },
  {
    name: "Careem", product: "Careem Pay Gift Card", categories: ["ride-hailing", "food"],
    countries: "AE SA", tier: "low",
    domain: "careem.com",
    description: "Careem Pay credit for rides, food and grocery delivery in the Careem everything app in {country}.",
    redemption: "1. Open the Careem app and tap Careem Pay.\n2. Tap Add credit > Redeem voucher and enter the code.\n3. The credit is ready for your next ride or order.",
    popularity: 250, colors: { bg: "#00E784", fg: "#1A1A1A" },
  },
  {
    name: "DoorDash", product: "DoorDash Gift Card", categories: ["food", "groceries"],
    countries: "US CA AU NZ", tier: "low", denoms: { USD: [15, 25, 50, 100] },
    domain: "doordash.com",
    description: "Food, groceries and everyday essentials delivered from local restaurants and stores in {country}.",
    redemption: "1. Open the DoorDash app or sign in at {domain}.\n2. Go to Account > Gift card and enter the code.\n3. The credit is applied to your next order.",
    recipient: "email",
    popularity: 520, colors: { bg: "#E01400", fg: "#FFFFFF" },
  },
  {
    name: "Deliveroo", product: "Deliveroo Gift Card", categories: ["food", "groceries"],
    countries: "GB FR IE AE SG HK", tier: "low",
    domain: { default: "deliveroo.{cc}", GB: "deliveroo.co.uk", SG: "deliveroo.com.sg" },
    description: "Restaurant meals and grocery essentials delivered by Deliveroo riders in {country}.",
    redemption: FOOD_REDEEM,
    popularity: 380, colors: { bg: "#00CCBC", fg: "#1A1A1A" },
  },
  {
    name: "Swiggy", product: "Swiggy Gift Card", categories: ["food", "groceries"],
    countries: "IN", tier: "low",
    domain: "swiggy.com",
    description: "Food delivery from thousands of restaurants and 10-minute grocery delivery with Swiggy Instamart, across India.",
    redemption: "1. Open the Swiggy app and tap your profile > Swiggy Money.\n2. Tap Add gift card and enter the code and PIN.\n3. The balance is used at checkout.",
    popularity: 360, colors: { bg: "#FC8019", fg: "#1A1A1A" },
  },
  {
    name: "Zomato", product: "Zomato Gift Card", categories: ["food"],
    countries: "IN", tier: "low",
    domain: "zomato.com",
    description: "Food delivery and dining out with Zomato, across India.",
    redemption: "1. Open the Zomato app and go to Profile > Zomato Money.\n2. Tap Add gift card and enter the code.\n3. Pay with Zomato Money at checkout.",
    popularity: 300, colors: { bg: "#CB202D", fg: "#FFFFFF" },
  },
  {
    name: "Talabat", product: "Talabat Gift Card", categories: ["food", "groceries"],
    countries: "AE KW QA EG", tier: "low",
    domain: "talabat.com",
    description: "Food, groceries and pharmacy orders delivered by talabat in {country}.",
    redemption: "1. Open the talabat app and go to Account > talabat pay.\n2. Tap Redeem voucher and enter the code.\n3. The credit is applied to your next order.",
    popularity: 300, colors: { bg: "#FF5A00", fg: "#1A1A1A" },
  },
  {
    name: "Rappi", product: "Rappi Gift Card", categories: ["food", "groceries"],
    countries: "MX CO BR PE CL AR", tier: "low",
    domain: "rappi.com",
    description: "RappiCréditos for restaurants, supermarkets and pharmacies delivered in {country}.",
    redemption: "1. Open the Rappi app and go to your profile > RappiPay or Credits.\n2. Tap Redeem code and enter it.\n3. The credit is used on your next order.",
    popularity: 280, colors: { bg: "#FF441F", fg: "#1A1A1A" },
  },
  {
    name: "Instacart", product: "Instacart Gift Card", categories: ["groceries", "food"],
    countries: "US CA", tier: "std",
    domain: "instacart.com",
    description: "Same-day grocery delivery from local stores in {country}.",
    redemption: "1. Sign in at {domain} or in the Instacart app.\n2. Go to Account > Gift cards and add the code.\n3. The balance is applied at checkout.",
    popularity: 320, colors: { bg: "#003D29", fg: "#FFFFFF" },
  },
  {
    name: "Starbucks", product: "Starbucks Card", categories: ["food"],
    countries: "US CA GB MX JP KR TH CN", tier: "low",
    domain: "starbucks.com",
    description: "Coffee, tea and food at participating Starbucks stores in {country}. Add it to the Starbucks app to collect Stars on every purchase.",
    redemption: "1. Open the Starbucks app and tap Scan > Manage > Add card.\n2. Enter the card number and the PIN (its security code).\n3. Pay by scanning the app at the till, or show the code in store.",
    recipient: "email",
    popularity: 560, colors: { bg: "#00704A", fg: "#FFFFFF" },
  },
  {
    name: "Tim Hortons", product: "Tim Card", categories: ["food"],
    countries: "CA", tier: "low", denoms: { CAD: [10, 25, 50, 100] },
    domain: "timhortons.ca",
    description: "Coffee, Timbits and breakfast at Tim Hortons restaurants across Canada.",
    redemption: "1. Open the Tim Hortons app and go to Account > Tim Card.\n2. Add the card number and PIN.\n3. Pay by scanning the app at the counter or drive-thru.",
    popularity: 200, colors: { bg: "#C8102E", fg: "#FFFFFF" },
  },
  {
    name: "Airbnb", product: "Airbnb Gift Card", categories: ["travel"],
    countries: "US GB CA AU FR DE ES IT JP BR MX", tier: "high",
    domain: "airbnb.com/redeem",
    description: "Stays and experiences in more than 220 countries. Bought for {country}; the credit can be spent on any Airbnb booking worldwide.",
    redemption: "1. Go to {domain} (or Account > Payments > Gift cards in the app).\n2. Enter the code and select Redeem.\n3. The credit is added to your Airbnb account and applied at checkout.",
    recipient: "email",
    popularity: 740, colors: { bg: "#E00B41", fg: "#FFFFFF" },
  },
  {
    name: "Booking.com", slug: "booking", product: "Booking.com Gift Card", categories: ["travel"],
    countries: "US GB DE FR IT ES NL CA AU", tier: "high",
    domain: "booking.com",
    description: "Hotels, apartments, flights and car hire on Booking.com. Bought for {country}; valid on properties worldwide that accept Booking.com payment.",
    redemption: "1. Choose a stay on {domain} that shows Pay with Booking.com.\n2. At the payment step, select Gift card and enter the code.\n3. Any remaining balance stays in your Booking.com wallet.",
    recipient: "email",
    popularity: 540, colors: { bg: "#003580", fg: "#FFFFFF" },
  },
  {
    name: "Hotels.com", slug: "hotels-com", product: "Hotels.com Gift Card", categories: ["travel"],
    countries: "US GB CA AU DE", tier: "high",
    domain: "hotels.com",
    description: "Hotel stays around the world on Hotels.com, and still collect OneKey Cash on the booking.",
    redemption: "1. Choose your hotel on {domain} and go to checkout.\n2. Select Pay now, then Use a gift card.\n3. Enter the card number and PIN; the value is taken off the total.",
    popularity: 320, colors: { bg: "#C8102E", fg: "#FFFFFF" },
  },
  // --- Retail: global ------------------------------------------------------------------------------------------
  {
    name: "eBay", product: "eBay Gift Card", categories: ["shopping", "electronics"],
    countries: "US GB DE FR IT ES AU CA", tier: "std",
    domain: { default: "ebay.com", GB: "ebay.co.uk", DE: "ebay.de", FR: "ebay.fr", IT: "ebay.it", ES: "ebay.es", AU: "ebay.com.au", CA: "ebay.ca" },
    description: "Spend on millions of new and used items from sellers on {domain}.",
    redemption: "1. Add items to your basket on {domain} and go to checkout.\n2. Select Add gift card, coupon or voucher.\n3. Enter the redemption code and Apply. The card works only on {domain}.",
    popularity: 520, colors: { bg: "#0064D2", fg: "#FFFFFF" },
  },
  {
    name: "IKEA", product: "IKEA Gift Card", categories: ["home", "shopping"],
    countries: "US GB DE FR IT ES NL SE NO DK PL CH AT BE CA AU JP AE SA", tier: "std",
    domain: "ikea.com/{cc}",
    description: "Furniture, kitchens, storage and home accessories at IKEA stores in {country} and on {domain}. Also good for the Swedish food market and restaurant.",
    redemption: RETAIL_REDEEM,
    popularity: 580, colors: { bg: "#0058A3", fg: "#FFDB00" },
  },
  {
    name: "H&M", slug: "hm", product: "H&M Gift Card", categories: ["fashion", "shopping"],
    countries: "US GB DE FR IT ES NL SE NO DK PL CH AT BE CA AU JP MX IN AE", tier: "std",
    domain: "hm.com",
    description: "Fashion for women, men and kids, plus H&M HOME, in H&M stores in {country} and online at {domain}.",
    redemption: RETAIL_REDEEM,
    popularity: 480, colors: { bg: "#E50010", fg: "#FFFFFF" },
  },
  {
    name: "Nike", product: "Nike Gift Card", categories: ["fashion", "shopping"],
    countries: "US GB DE FR IT ES NL CA AU JP", tier: "std",
    domain: "nike.com",
    description: "Shoes, clothing and gear at {domain}, in the Nike App and at Nike stores in {country}.",
    redemption: RETAIL_REDEEM,
    popularity: 500, colors: { bg: "#111111", fg: "#FFFFFF" },
  },
  {
    name: "Sephora", product: "Sephora Gift Card", categories: ["fashion", "shopping"],
    countries: "US CA FR IT ES PL MX AE SA AU SG MY", tier: "std",
    domain: "sephora.com",
    description: "Make-up, skincare, fragrance and hair care from hundreds of brands at Sephora in {country}.",
    redemption: RETAIL_REDEEM,
    popularity: 440, colors: { bg: "#000000", fg: "#FFFFFF" },
  },
  {
    name: "Decathlon", product: "Decathlon Gift Card", categories: ["shopping", "fashion"],
    countries: "FR ES IT DE PL BE NL GB IN", tier: "std",
    domain: { default: "decathlon.{cc}", GB: "decathlon.co.uk" },
    description: "Sports equipment and clothing for more than 80 sports at Decathlon stores in {country} and online.",
    redemption: RETAIL_REDEEM,
    popularity: 300, colors: { bg: "#3643BA", fg: "#FFFFFF" },
  },
  {
    name: "Carrefour", product: "Carrefour Gift Card", categories: ["groceries", "shopping"],
    countries: "FR ES IT BE AE SA EG PL RO BR", tier: "std",
    domain: { default: "carrefour.{cc}", AE: "carrefouruae.com", SA: "carrefourksa.com", EG: "carrefouregypt.com", BR: "carrefour.com.br" },
    description: "Groceries, household essentials and electronics at Carrefour hypermarkets and supermarkets in {country}.",
    redemption: RETAIL_REDEEM,
    popularity: 340, colors: { bg: "#0E4194", fg: "#FFFFFF" },
  },
  {
    name: "MediaMarkt", product: "MediaMarkt Gift Card", categories: ["electronics", "shopping"],
    countries: "DE NL ES IT AT BE PL CH HU", tier: "std",
    domain: "mediamarkt.{cc}",
    description: "Phones, laptops, TVs, games and home appliances at MediaMarkt stores in {country} and online.",
    redemption: RETAIL_REDEEM,
    popularity: 320, colors: { bg: "#DF0000", fg: "#FFFFFF" },
  },
  {
    name: "Zalando", product: "Zalando Gift Card", categories: ["fashion", "shopping"],
    countries: "DE FR IT ES NL AT BE PL SE NO DK CH FI IE CZ", tier: "std",
    domain: "zalando.{cc}",
    description: "Shoes, fashion and beauty from more than 4,000 brands, with free delivery and returns, on Zalando in {country}.",
    redemption: "1. Sign in to Zalando in the app or on the website for {country}.\n2. Go to Gift cards & vouchers > Redeem gift card.\n3. Enter the code; the balance is saved to your account and used at checkout.",
    popularity: 420, colors: { bg: "#FF6900", fg: "#000000" },
  },
  {
    name: "Visa Prepaid", product: "Visa Prepaid Card", categories: ["prepaid-cards", "shopping"],
    countries: "US CA GB DE FR ES IT AU", tier: "high", range: [20, 500],
    domain: "visa.com",
    description: "A virtual prepaid Visa card: spend it online wherever Visa is accepted in {country}. No bank account or credit check needed. Cannot be reloaded or used at ATMs.",
    redemption: "1. Open your code to see the 16-digit card number, expiry date and CVV (given as the PIN).\n2. Register the card with the issuer using the link on your code to add your name and billing address.\n3. Pay online like any Visa card, entering the registered address. Keep the code until the balance is used up.",
    popularity: 600, colors: { bg: "#1A1F71", fg: "#F7B600" },
  },
  {
    name: "Mastercard Prepaid", product: "Mastercard Prepaid Card", categories: ["prepaid-cards", "shopping"],
    countries: "US CA GB DE FR AU MX BR", tier: "high", range: [20, 500],
    domain: "mastercard.com",
    description: "A virtual prepaid Mastercard for online shopping and subscriptions wherever Mastercard is accepted in {country}. Not reloadable.",
    redemption: "1. Open your code to see the card number, expiry date and security code (given as the PIN).\n2. Activate the card on the issuer's site linked from your code and set the billing address.\n3. Use it online like any Mastercard. Check the balance on the issuer's site.",
    popularity: 520, colors: { bg: "#1A1A1A", fg: "#F79E1B" },
  },
  // --- Retail: North America ---------------------------------------------------------------------------------
  {
    name: "Walmart", product: "Walmart Gift Card", categories: ["shopping", "groceries", "electronics", "home"],
    countries: "US MX CA", tier: "std", range: [5, 500],
    domain: { default: "walmart.com", MX: "walmart.com.mx", CA: "walmart.ca" },
    description: "Groceries, electronics, home goods and more at Walmart stores in {country} and on {domain}.",
    redemption: RETAIL_REDEEM,
    popularity: 620, colors: { bg: "#0071CE", fg: "#FFFFFF" },
  },
  {
    name: "Target", product: "Target GiftCard", categories: ["shopping", "groceries", "home"],
    countries: "US", tier: "std", range: [5, 500],
    domain: "target.com",
    description: "Everything from groceries to home décor at any Target store in the United States and on {domain}.",
    redemption: "1. Online: at checkout on {domain}, select Target GiftCard and enter the card number and access number (the PIN).\n2. In store: scan the barcode from your code at the till.\n3. Add it to the Target app Wallet to pay and check the balance.",
    popularity: 560, colors: { bg: "#CC0000", fg: "#FFFFFF" },
  },
  {
    name: "Best Buy", product: "Best Buy Gift Card", categories: ["electronics", "shopping"],
    countries: "US CA", tier: "std",
    domain: { default: "bestbuy.com", CA: "bestbuy.ca" },
    description: "Laptops, phones, TVs, appliances and games at Best Buy stores in {country} and on {domain}.",
    redemption: RETAIL_REDEEM,
    popularity: 480, colors: { bg: "#0046BE", fg: "#FFE000" },
  },
  {
    name: "Home Depot", product: "The Home Depot Gift Card", categories: ["home", "shopping"],
    countries: "US CA MX", tier: "high",
    domain: { default: "homedepot.com", CA: "homedepot.ca", MX: "homedepot.com.mx" },
    description: "Tools, building materials, appliances and garden supplies at The Home Depot in {country} and on {domain}.",
    redemption: RETAIL_REDEEM,
    popularity: 420, colors: { bg: "#F96302", fg: "#1A1A1A" },
  },
  {
    name: "Lowe's", slug: "lowes", product: "Lowe's Gift Card", categories: ["home", "shopping"],
    countries: "US", tier: "high",
    domain: "lowes.com",
    description: "Home improvement, appliances and garden supplies at Lowe's stores in the United States and on {domain}.",
    redemption: RETAIL_REDEEM,
    popularity: 330, colors: { bg: "#004990", fg: "#FFFFFF" },
  },
  {
    name: "Macy's", slug: "macys", product: "Macy's Gift Card", categories: ["fashion", "shopping", "home"],
    countries: "US", tier: "std",
    domain: "macys.com",
    description: "Fashion, beauty and home at Macy's stores across the United States and on {domain}.",
    redemption: RETAIL_REDEEM,
    popularity: 300, colors: { bg: "#C8102E", fg: "#FFFFFF" },
  },
  {
    name: "Canadian Tire", product: "Canadian Tire Gift Card", categories: ["home", "shopping"],
    countries: "CA", tier: "std",
    domain: "canadiantire.ca",
    description: "Automotive, tools, sports and home goods at Canadian Tire stores and on {domain}.",
    redemption: RETAIL_REDEEM,
    popularity: 220, colors: { bg: "#D6001C", fg: "#FFFFFF" },
  },
  // --- Retail: Europe ----------------------------------------------------------------------------------------
  {
    name: "Tesco", product: "Tesco Gift Card", categories: ["groceries", "shopping"],
    countries: "GB IE CZ HU SK", tier: "std",
    domain: "tesco.com",
    description: "Groceries, clothing and household essentials at Tesco stores in {country}. Not valid for fuel, lottery or gift cards.",
    redemption: "1. In store: show the code at any till or self-service checkout.\n2. Online: at checkout on {domain}, choose Add gift card and enter the card number and PIN.\n3. Check your balance any time on {domain}/giftcards.",
    popularity: 340, colors: { bg: "#00539F", fg: "#FFFFFF" },
  },
  {
    name: "Argos", product: "Argos Gift Card", categories: ["shopping", "electronics", "home"],
    countries: "GB", tier: "std",
    domain: "argos.co.uk",
    description: "Toys, electronics, home and garden from Argos stores, Argos in Sainsbury's and {domain}.",
    redemption: RETAIL_REDEEM,
    popularity: 260, colors: { bg: "#D42114", fg: "#FFFFFF" },
  },
  {
    name: "John Lewis", product: "John Lewis Gift Card", categories: ["shopping", "home", "fashion"],
    countries: "GB", tier: "std",
    domain: "johnlewis.com",
    description: "Fashion, home, beauty and technology at John Lewis shops across the UK and on {domain}. Also valid at Waitrose.",
    redemption: RETAIL_REDEEM,
    popularity: 240, colors: { bg: "#1A1A1A", fg: "#FFFFFF" },
  },
  {
    name: "Fnac", product: "Carte Cadeau Fnac", categories: ["electronics", "entertainment", "shopping"],
    countries: "FR BE", tier: "std",
    domain: "fnac.com",
    description: "Books, music, games, tech and concert tickets at Fnac stores in {country} and on {domain}.",
    redemption: RETAIL_REDEEM,
    popularity: 220, colors: { bg: "#E1A925", fg: "#1A1A1A" },
  },
  {
    name: "Douglas", product: "Douglas Gift Card", categories: ["fashion", "shopping"],
    countries: "DE AT NL PL IT", tier: "std",
    domain: "douglas.{cc}",
    description: "Perfume, make-up and skincare at Douglas perfumeries in {country} and online.",
    redemption: RETAIL_REDEEM,
    popularity: 220, colors: { bg: "#9BDCD2", fg: "#000000" },
  },
  {
    name: "Bol.com", slug: "bol", product: "bol.com Gift Card", categories: ["shopping", "electronics"],
    countries: "NL BE", tier: "std",
    domain: "bol.com",
    description: "Books, electronics, toys and more from the largest online shop in the Netherlands and Belgium.",
    redemption: "1. Sign in at {domain} and go to My account > Gift cards.\n2. Enter the code; the balance is saved to your account.\n3. It is applied automatically to your next order.",
    popularity: 240, colors: { bg: "#0000A4", fg: "#FFFFFF" },
  },
  {
    name: "Allegro", product: "Allegro Gift Card", categories: ["shopping", "electronics"],
    countries: "PL CZ", tier: "std",
    domain: "allegro.{cc}",
    description: "Millions of offers from Polish and international sellers on Allegro, the biggest marketplace in Central Europe.",
    redemption: "1. Sign in at {domain} and add items to your basket.\n2. At checkout choose Allegro gift card and enter the code.\n3. Any balance left stays on your account.",
    popularity: 240, colors: { bg: "#FF5A00", fg: "#1A1A1A" },
  },
  {
    name: "Trendyol", product: "Trendyol Gift Card", categories: ["fashion", "shopping"],
    countries: "TR", tier: "std",
    domain: "trendyol.com",
    description: "Fashion, electronics and groceries from Türkiye's largest online marketplace.",
    redemption: "1. Open the Trendyol app and go to My account > Gift cards.\n2. Enter the code and confirm.\n3. The balance is used at checkout.",
    popularity: 240, colors: { bg: "#F27A1A", fg: "#1A1A1A" },
  },
  // --- Retail: Asia, Middle East, Africa, Latin America, Oceania ---------------------------------------------
  {
    name: "Flipkart", product: "Flipkart Gift Card", categories: ["shopping", "electronics", "fashion"],
    countries: "IN", tier: "std", denoms: { INR: [100, 250, 500, 1000, 2000, 5000] },
    domain: "flipkart.com",
    description: "Phones, electronics, fashion and home goods on Flipkart, India's home-grown marketplace.",
    redemption: "1. Open the Flipkart app and go to Account > Gift cards.\n2. Tap Add a gift card and enter the card number and PIN.\n3. The balance is used at checkout; it is valid for one year.",
    popularity: 460, colors: { bg: "#1F5FD1", fg: "#FFFFFF" },
  },
  {
    name: "Myntra", product: "Myntra Gift Card", categories: ["fashion", "shopping"],
    countries: "IN", tier: "std",
    domain: "myntra.com",
    description: "Fashion, footwear and beauty from thousands of brands on Myntra, across India.",
    redemption: "1. Open the Myntra app and go to Profile > Gift cards.\n2. Enter the card number and PIN.\n3. The balance is applied at checkout.",
    popularity: 260, colors: { bg: "#FF3F6C", fg: "#000000" },
  },
  {
    name: "Nykaa", product: "Nykaa Gift Card", categories: ["fashion", "shopping"],
    countries: "IN", tier: "std",
    domain: "nykaa.com",
    description: "Beauty, wellness and fashion on Nykaa and at Nykaa stores across India.",
    redemption: "1. Sign in at {domain} or in the Nykaa app.\n2. Go to Wallet > Add gift card and enter the code and PIN.\n3. Pay with the wallet at checkout.",
    popularity: 220, colors: { bg: "#C2005B", fg: "#FFFFFF" },
  },
  {
    name: "Noon", product: "noon Gift Card", categories: ["shopping", "electronics", "fashion"],
    countries: "AE SA EG", tier: "std",
    domain: "noon.com",
    description: "Electronics, fashion, beauty and groceries delivered fast by noon in {country}.",
    redemption: "1. Open the noon app and go to Account > noon credits.\n2. Tap Redeem gift card and enter the code.\n3. The credits are used at checkout.",
    popularity: 400, colors: { bg: "#FEEE00", fg: "#1A1A1A" },
  },
  {
    name: "Jarir Bookstore", slug: "jarir", product: "Jarir Gift Card", categories: ["electronics", "shopping"],
    countries: "SA AE QA KW", tier: "std",
    domain: "jarir.com",
    description: "Books, phones, computers and office supplies at Jarir Bookstore showrooms in {country} and on {domain}.",
    redemption: RETAIL_REDEEM,
    popularity: 200, colors: { bg: "#C4161C", fg: "#FFFFFF" },
  },
  {
    name: "Jumia", product: "Jumia Gift Card", categories: ["shopping", "electronics", "fashion"],
    countries: "NG EG KE MA GH", tier: "std",
    domain: "jumia.com",
    description: "Phones, fashion, appliances and groceries delivered by Jumia in {country}.",
    redemption: "1. Sign in to the Jumia app or website for {country}.\n2. Add items to your cart and proceed to checkout.\n3. Enter the voucher code in the Voucher field and apply it.",
    popularity: 260, colors: { bg: "#F68B1E", fg: "#1A1A1A" },
  },
  {
    name: "Takealot", product: "Takealot Gift Voucher", categories: ["shopping", "electronics"],
    countries: "ZA", tier: "std",
    domain: "takealot.com",
    description: "Electronics, books, home and baby goods from South Africa's largest online retailer.",
    redemption: "1. Sign in at {domain} and go to My account > Credit & refunds.\n2. Select Redeem gift voucher and enter the code.\n3. The credit is used on your next order.",
    popularity: 220, colors: { bg: "#0B5FA5", fg: "#FFFFFF" },
  },
  {
    name: "Mercado Libre", product: "Mercado Libre Gift Card", categories: ["shopping", "electronics"],
    countries: "MX BR AR CL CO", tier: "std",
    domain: "mercadolibre.com",
    description: "Millions of products with fast delivery on Mercado Libre in {country}. The balance is added to Mercado Pago.",
    redemption: "1. Sign in to Mercado Libre or Mercado Pago in {country}.\n2. Go to Gift cards > Redeem and enter the code.\n3. The balance goes into your Mercado Pago account; choose it when you pay.",
    popularity: 420, colors: { bg: "#FFE600", fg: "#2D3277" },
  },
  {
    name: "Lazada", product: "Lazada eVoucher", categories: ["shopping", "electronics", "fashion"],
    countries: "MY SG TH ID PH VN", tier: "std",
    domain: "lazada.com",
    description: "Electronics, fashion, beauty and groceries from LazMall brands and sellers in {country}.",
    redemption: "1. Open the Lazada app and go to Account > LazWallet.\n2. Tap Top up > Gift card and enter the code.\n3. Pay with LazWallet at checkout.",
    popularity: 360, colors: { bg: "#0F146D", fg: "#FFFFFF" },
  },
  {
    name: "Shopee", product: "Shopee Gift Card", categories: ["shopping", "electronics", "fashion"],
    countries: "MY SG TH ID PH VN TW BR", tier: "std",
    domain: "shopee.com",
    description: "Millions of products with free shipping vouchers on Shopee in {country}. Credited to ShopeePay.",
    redemption: "1. Open the Shopee app and tap Me > ShopeePay.\n2. Tap Top up > Redeem code and enter the code.\n3. Pay with ShopeePay at checkout.",
    popularity: 380, colors: { bg: "#D73211", fg: "#FFFFFF" },
  },
  {
    name: "Tokopedia", product: "Tokopedia Gift Card", categories: ["shopping", "electronics"],
    countries: "ID", tier: "std",
    domain: "tokopedia.com",
    description: "Everything from phones to groceries from sellers across Indonesia on Tokopedia.",
    redemption: "1. Open the Tokopedia app and go to Account > Gift card.\n2. Enter the code.\n3. The balance is used at checkout.",
    popularity: 240, colors: { bg: "#03AC0E", fg: "#000000" },
  },
  {
    name: "Rakuten", product: "Rakuten Gift Card", categories: ["shopping", "electronics"],
    countries: "JP", tier: "std",
    domain: "rakuten.co.jp",
    description: "Spend on Rakuten Ichiba, Rakuten Books and Rakuten Travel in Japan. Credited as Rakuten Cash.",
    redemption: "1. Sign in to my Rakuten at {domain}.\n2. Go to Rakuten Cash > Charge with gift card and enter the code.\n3. Rakuten Cash is used automatically at checkout.",
    popularity: 300, colors: { bg: "#BF0000", fg: "#FFFFFF" },
  },
  {
    name: "Line", product: "LINE Gift Code", categories: ["entertainment", "gaming"],
    countries: "JP TH TW", tier: "low",
    domain: "store.line.me",
    description: "LINE Coins for stickers, emoji, themes and LINE games. For LINE accounts registered in {country}.",
    redemption: "1. Go to {domain} and log in with your LINE account.\n2. Open My page > Redeem gift code (or Charge > Prepaid card).\n3. Enter the code; the coins show in your LINE wallet.",
    popularity: 240, colors: { bg: "#06C755", fg: "#1A1A1A" },
  },
  {
    name: "JD.com", slug: "jd", product: "JD E-Card", categories: ["shopping", "electronics"],
    countries: "CN", tier: "std",
    domain: "jd.com",
    description: "Electronics, groceries and household goods from JD.com, with fast delivery across China.",
    redemption: "1. Open the JD app and go to My > Wallet > E-card.\n2. Tap Bind and enter the card password.\n3. The E-card balance is used at checkout.",
    popularity: 260, colors: { bg: "#E1251B", fg: "#FFFFFF" },
  },
  {
    name: "Woolworths", product: "Woolworths eGift Card", categories: ["groceries", "shopping"],
    countries: "AU", tier: "std",
    domain: "woolworths.com.au",
    description: "Groceries at Woolworths supermarkets and Metro stores across Australia, and online at {domain}.",
    redemption: RETAIL_REDEEM,
    popularity: 280, colors: { bg: "#125430", fg: "#FFFFFF" },
  },
  {
    name: "JB Hi-Fi", slug: "jb-hi-fi", product: "JB Hi-Fi Gift Card", categories: ["electronics", "entertainment", "shopping"],
    countries: "AU NZ", tier: "std",
    domain: "jbhifi.com.au",
    description: "Phones, laptops, TVs, games, music and films at JB Hi-Fi stores in {country} and online.",
    redemption: RETAIL_REDEEM,
    popularity: 240, colors: { bg: "#FFF200", fg: "#1A1A1A" },
  },
];

// ---------------------------------------------------------------------------------------------------------------
// eSIMs
// ---------------------------------------------------------------------------------------------------------------

export const ESIM_BRAND = "Storefront eSIM";
export const ESIM_COLORS: Colors = { bg: "#0F3D5E", fg: "#FFFFFF" };
export const ESIM_CATEGORIES = ["esim", "data", "travel"];

/** The bundles every eSIM offers (when its price list has a price for them): [value, data MB or null, days]. */
export const ESIM_BUNDLES: [value: string, dataMb: number | null, days: number][] = [
  ["1GB, 7 Days", 1024, 7],
  ["3GB, 30 Days", 3 * 1024, 30],
  ["5GB, 30 Days", 5 * 1024, 30],
  ["10GB, 30 Days", 10 * 1024, 30],
  ["20GB, 30 Days", 20 * 1024, 30],
  ["Unlimited, 7 Days", null, 7],
];

/** US-dollar prices of `ESIM_BUNDLES` in order; null where the bundle is not offered. */
export type EsimPrices = (number | null)[];

// prettier-ignore
export const ESIM_PRICE_TIERS: Record<"A" | "B" | "C" | "D", EsimPrices> = {
  A: [4.5, 8, 11, 17, 28, 24],          // US, most of Europe, South-East Asia's cheap markets
  B: [5, 10, 14, 22, 36, 29],
  C: [7, 15, 22, 35, 58, 45],
  D: [9, 20, 30, 49, 79, null],         // networks with dear wholesale data
};

/** Single-country eSIMs, most popular first: [code, price tier, partner networks]. */
// prettier-ignore
export const ESIM_COUNTRIES: [code: string, tier: keyof typeof ESIM_PRICE_TIERS, networks: string][] = [
  ["JP", "B", "NTT Docomo, SoftBank and KDDI"],
  ["US", "A", "AT&T and T-Mobile"],
  ["TH", "A", "AIS, TrueMove H and dtac"],
  ["GB", "A", "EE, Three and O2"],
  ["FR", "A", "Orange, SFR and Bouygues Telecom"],
  ["IT", "A", "TIM, Vodafone and WindTre"],
  ["ES", "A", "Movistar, Orange and Vodafone"],
  ["TR", "B", "Turkcell, Vodafone and Türk Telekom"],
  ["KR", "B", "SK Telecom, KT and LG U+"],
  ["DE", "A", "Telekom, Vodafone and O2"],
  ["MX", "B", "Telcel and AT&T"],
  ["ID", "A", "Telkomsel, Indosat and XL"],
  ["VN", "A", "Viettel, Vinaphone and MobiFone"],
  ["AE", "C", "Etisalat and du"],
  ["CN", "C", "China Unicom and China Mobile"],
  ["SG", "B", "Singtel, StarHub and M1"],
  ["CA", "C", "Rogers, Bell and Telus"],
  ["PT", "A", "MEO, NOS and Vodafone"],
  ["GR", "A", "Cosmote, Vodafone and Nova"],
  ["MY", "A", "Maxis, CelcomDigi and U Mobile"],
  ["HK", "B", "CSL, 3 and SmarTone"],
  ["TW", "B", "Chunghwa Telecom, Taiwan Mobile and FarEasTone"],
  ["AU", "B", "Telstra, Optus and Vodafone"],
  ["PH", "B", "Globe and Smart"],
  ["IN", "B", "Airtel, Jio and Vi"],
  ["NL", "A", "KPN, Vodafone and Odido"],
  ["CH", "B", "Swisscom, Sunrise and Salt"],
  ["AT", "A", "A1, Magenta and Drei"],
  ["IE", "A", "Three, Vodafone and Eir"],
  ["PL", "A", "Play, Orange, Plus and T-Mobile"],
  ["CZ", "A", "O2, T-Mobile and Vodafone"],
  ["BR", "B", "Claro, Vivo and TIM"],
  ["EG", "C", "Vodafone, Orange and e&"],
  ["MA", "C", "Orange, Maroc Telecom and inwi"],
  ["SA", "C", "STC, Mobily and Zain"],
  ["QA", "C", "Ooredoo and Vodafone"],
  ["IL", "B", "Partner, Cellcom and Pelephone"],
  ["NZ", "B", "One NZ, Spark and 2degrees"],
  ["IS", "B", "Síminn, Vodafone and Nova"],
  ["CO", "B", "Claro, Movistar and Tigo"],
  ["PE", "B", "Claro, Movistar and Entel"],
  ["CL", "B", "Entel, Movistar and Claro"],
  ["AR", "C", "Claro, Movistar and Personal"],
  ["ZA", "C", "Vodacom, MTN and Cell C"],
  ["LK", "B", "Dialog and Mobitel"],
  ["KE", "D", "Safaricom and Airtel"],
  ["NG", "D", "MTN, Airtel and Glo"],
];

export type EsimRegion = { name: string; slug: string; countries: string; prices: EsimPrices; popularity: number };

// prettier-ignore
export const ESIM_REGIONS: EsimRegion[] = [
  {
    name: "Europe", slug: "europe", popularity: 720, prices: [5, 9.5, 13, 20, 33, 29],
    countries: "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO GB CH",
  },
  {
    name: "Asia", slug: "asia", popularity: 600, prices: [6, 13, 19, 30, 49, 39],
    countries: "JP KR SG TH MY ID VN PH HK MO TW IN LK KH",
  },
  { name: "North America", slug: "north-america", popularity: 520, prices: [5.5, 11, 16, 25, 42, 34], countries: "US CA MX" },
  {
    name: "Latin America", slug: "latin-america", popularity: 380, prices: [9, 21, 32, 52, 86, null],
    countries: "MX BR AR CL CO PE EC UY PY BO CR PA GT SV HN NI DO",
  },
  {
    name: "Middle East", slug: "middle-east", popularity: 360, prices: [8, 18, 27, 44, 72, null],
    countries: "AE SA QA KW BH OM JO IL TR EG",
  },
  {
    name: "Africa", slug: "africa", popularity: 260, prices: [11, 25, 38, 62, null, null],
    countries: "ZA NG KE GH EG MA TZ UG RW SN CI TN",
  },
  { name: "Oceania", slug: "oceania", popularity: 300, prices: [6, 13, 18, 28, 46, 36], countries: "AU NZ" },
  {
    name: "Global", slug: "global", popularity: 640, prices: [12, 28, 42, 68, 115, null],
    countries:
      "US CA MX BR AR CL CO PE EC UY CR PA GB FR DE IT ES PT NL BE AT CH IE SE NO DK FI PL CZ HU RO GR HR TR IS " +
      "JP KR CN HK TW SG TH MY ID VN PH IN LK AU NZ AE SA QA KW IL EG MA ZA KE NG GH TZ",
  },
];

export const ESIM_REDEMPTION =
  "Before you travel, on Wi-Fi:\n" +
  "1. Check that your phone is unlocked and supports eSIM.\n" +
  "2. iPhone: Settings > Mobile Service > Add eSIM > Use QR Code, and scan the QR code from your order. Android: Settings > Network & internet > SIMs > Add eSIM, and scan the code.\n" +
  "3. No camera? Choose Enter details manually and paste the SM-DP+ address and activation code (the LPA:1$... string) from your order.\n" +
  "4. Label the new line Travel data and keep your home SIM for calls and texts.\n" +
  "On arrival:\n" +
  "5. Set the travel eSIM as the line for mobile data and turn on Data Roaming for it.\n" +
  "6. The plan starts when the eSIM first connects to a supported network. Install the eSIM only once: it cannot be reinstalled after you delete it.";

// ---------------------------------------------------------------------------------------------------------------
// Mobile top-ups
// ---------------------------------------------------------------------------------------------------------------

/** Top-up amounts in each country's currency (see `COUNTRIES`), with an open range where operators take any amount. */
// prettier-ignore
export const TOPUP_AMOUNTS: Record<string, { amounts: number[]; range?: [min: number, max: number, step: number] }> = {
  US: { amounts: [10, 15, 20, 25, 30, 40, 50], range: [5, 100, 1] },
  GB: { amounts: [5, 10, 15, 20, 25, 30] },
  FR: { amounts: [5, 10, 15, 20, 25, 30, 40] },
  DE: { amounts: [15, 20, 25, 30, 50] },
  IT: { amounts: [5, 10, 15, 20, 25, 30, 50] },
  ES: { amounts: [5, 10, 15, 20, 25, 30] },
  PL: { amounts: [5, 10, 20, 25, 30, 50, 100] },
  TR: { amounts: [100, 200, 300, 500, 1000] },
  UA: { amounts: [50, 100, 200, 300, 500, 1000] },
  MX: { amounts: [20, 30, 50, 100, 150, 200, 300, 500] },
  BR: { amounts: [15, 20, 25, 30, 40, 50, 100] },
  AR: { amounts: [1000, 2000, 3000, 5000, 10000, 20000] },
  CO: { amounts: [5000, 10000, 20000, 30000, 50000] },
  PE: { amounts: [5, 10, 15, 20, 30, 50] },
  GT: { amounts: [5, 10, 15, 20, 25, 30, 50] },
  DO: { amounts: [5, 10, 15, 20, 25, 30, 50] },
  JM: { amounts: [5, 10, 15, 20, 25, 30, 50] },
  HT: { amounts: [5, 10, 15, 20, 25, 30, 50] },
  IN: { amounts: [50, 100, 200, 500, 1000, 2000], range: [10, 10000, 1] },
  PK: { amounts: [100, 200, 500, 1000, 2000, 5000], range: [50, 10000, 1] },
  BD: { amounts: [50, 100, 200, 500, 1000], range: [20, 5000, 1] },
  PH: { amounts: [50, 100, 300, 500, 1000] },
  ID: { amounts: [10000, 25000, 50000, 100000, 150000, 200000] },
  VN: { amounts: [20000, 50000, 100000, 200000, 300000, 500000] },
  TH: { amounts: [50, 100, 200, 300, 500, 1000] },
  CN: { amounts: [30, 50, 100, 200, 300, 500] },
  NG: { amounts: [500, 1000, 2000, 5000, 10000], range: [100, 50000, 50] },
  GH: { amounts: [5, 10, 20, 50, 100] },
  KE: { amounts: [50, 100, 250, 500, 1000, 2000], range: [10, 10000, 1] },
  ZA: { amounts: [10, 20, 30, 50, 100, 200] },
  EG: { amounts: [25, 50, 100, 200, 500] },
  MA: { amounts: [10, 20, 30, 50, 100, 200] },
  AE: { amounts: [25, 50, 100, 200, 500] },
  SA: { amounts: [30, 50, 100, 200, 300] },
};

export type Operator = {
  brand: string;
  country: string;
  /** National mobile prefixes in E.164 form, space-separated; the whole mobile range where numbers are portable. */
  prefixes: string;
  popularity: number;
  /** Product name before the country where it differs from the brand ("Etisalat (e&)"). */
  label?: string;
  /** Data bundles sold besides airtime: [value, price in local currency, data MB (omit for daily allowances), days]. */
  bundles?: [value: string, price: number, dataMb: number | null, days: number][];
};

// prettier-ignore
export const OPERATORS: Operator[] = [
  // North America and the Caribbean: NANP numbers do not show the operator.
  { brand: "AT&T", country: "US", prefixes: "+1", popularity: 420 },
  { brand: "Verizon", country: "US", prefixes: "+1", popularity: 400 },
  { brand: "T-Mobile", country: "US", prefixes: "+1", popularity: 410 },
  { brand: "Digicel", country: "JM", prefixes: "+1876", popularity: 380 },
  { brand: "Flow", country: "JM", prefixes: "+1876", popularity: 260 },
  { brand: "Claro", country: "DO", prefixes: "+1809 +1829 +1849", popularity: 340 },
  { brand: "Altice", country: "DO", prefixes: "+1809 +1829 +1849", popularity: 260 },
  { brand: "Digicel", country: "HT", prefixes: "+5093 +5094", popularity: 360 },
  { brand: "Natcom", country: "HT", prefixes: "+5093 +5094", popularity: 300 },
  { brand: "Tigo", country: "GT", prefixes: "+5023 +5024 +5025", popularity: 340 },
  { brand: "Claro", country: "GT", prefixes: "+5023 +5024 +5025", popularity: 300 },
  // Latin America
  { brand: "Telcel", country: "MX", prefixes: "+52", popularity: 520 },
  { brand: "AT&T", country: "MX", prefixes: "+52", popularity: 380 },
  { brand: "Movistar", country: "MX", prefixes: "+52", popularity: 300 },
  { brand: "Claro", country: "BR", prefixes: "+55", popularity: 360 },
  { brand: "Vivo", country: "BR", prefixes: "+55", popularity: 380 },
  { brand: "TIM", country: "BR", prefixes: "+55", popularity: 340 },
  { brand: "Claro", country: "CO", prefixes: "+573", popularity: 360 },
  { brand: "Movistar", country: "CO", prefixes: "+573", popularity: 280 },
  { brand: "Tigo", country: "CO", prefixes: "+573", popularity: 300 },
  { brand: "Claro", country: "PE", prefixes: "+519", popularity: 300 },
  { brand: "Movistar", country: "PE", prefixes: "+519", popularity: 280 },
  { brand: "Claro", country: "AR", prefixes: "+549", popularity: 260 },
  { brand: "Personal", country: "AR", prefixes: "+549", popularity: 240 },
  // Europe: numbers are portable, so every operator takes the country's mobile ranges.
  { brand: "EE", country: "GB", prefixes: "+447", popularity: 360 },
  { brand: "Vodafone", country: "GB", prefixes: "+447", popularity: 340 },
  { brand: "O2", country: "GB", prefixes: "+447", popularity: 340 },
  { brand: "Three", country: "GB", prefixes: "+447", popularity: 300 },
  { brand: "Lebara", country: "GB", prefixes: "+447", popularity: 280 },
  { brand: "Orange", country: "FR", prefixes: "+336 +337", popularity: 340 },
  { brand: "SFR", country: "FR", prefixes: "+336 +337", popularity: 300 },
  { brand: "Bouygues Telecom", country: "FR", prefixes: "+336 +337", popularity: 280 },
  { brand: "Free Mobile", country: "FR", prefixes: "+336 +337", popularity: 260 },
  { brand: "Telekom", country: "DE", prefixes: "+4915 +4916 +4917", popularity: 320 },
  { brand: "Vodafone", country: "DE", prefixes: "+4915 +4916 +4917", popularity: 300 },
  { brand: "O2", country: "DE", prefixes: "+4915 +4916 +4917", popularity: 290 },
  { brand: "TIM", country: "IT", prefixes: "+393", popularity: 300 },
  { brand: "Vodafone", country: "IT", prefixes: "+393", popularity: 290 },
  { brand: "WindTre", country: "IT", prefixes: "+393", popularity: 280 },
  { brand: "Iliad", country: "IT", prefixes: "+393", popularity: 250 },
  { brand: "Movistar", country: "ES", prefixes: "+346 +347", popularity: 300 },
  { brand: "Orange", country: "ES", prefixes: "+346 +347", popularity: 290 },
  { brand: "Vodafone", country: "ES", prefixes: "+346 +347", popularity: 270 },
  { brand: "Play", country: "PL", prefixes: "+4845 +4850 +4851 +4853 +4857 +4860 +4866 +4869 +4872 +4873 +4878 +4879 +4888", popularity: 260 },
  { brand: "Plus", country: "PL", prefixes: "+4845 +4850 +4851 +4853 +4857 +4860 +4866 +4869 +4872 +4873 +4878 +4879 +4888", popularity: 240 },
  { brand: "Turkcell", country: "TR", prefixes: "+905", popularity: 320 },
  { brand: "Vodafone", country: "TR", prefixes: "+905", popularity: 290 },
  { brand: "Türk Telekom", country: "TR", prefixes: "+905", popularity: 270 },
  { brand: "Kyivstar", country: "UA", prefixes: "+38067 +38068 +38096 +38097 +38098", popularity: 340 },
  { brand: "Vodafone", country: "UA", prefixes: "+38050 +38066 +38095 +38099", popularity: 300 },
  { brand: "lifecell", country: "UA", prefixes: "+38063 +38073 +38093", popularity: 260 },
  // South Asia
  {
    brand: "Airtel", country: "IN", prefixes: "+916 +917 +918 +919", popularity: 560,
    bundles: [["1.5GB/day, 28 Days", 349, null, 28], ["2GB/day, 28 Days", 379, null, 28], ["2GB/day, 84 Days", 979, null, 84]],
  },
  {
    brand: "Jio", country: "IN", prefixes: "+916 +917 +918 +919", popularity: 580,
    bundles: [["1.5GB/day, 28 Days", 299, null, 28], ["2GB/day, 28 Days", 349, null, 28], ["1.5GB/day, 84 Days", 799, null, 84]],
  },
  { brand: "Vi", country: "IN", prefixes: "+916 +917 +918 +919", popularity: 420 },
  { brand: "Jazz", country: "PK", prefixes: "+9230 +9232", popularity: 400 },
  { brand: "Zong", country: "PK", prefixes: "+9231", popularity: 340 },
  { brand: "Telenor", country: "PK", prefixes: "+9234", popularity: 320 },
  { brand: "Ufone", country: "PK", prefixes: "+9233", popularity: 280 },
  { brand: "Grameenphone", country: "BD", prefixes: "+88017 +88013", popularity: 420 },
  { brand: "Robi", country: "BD", prefixes: "+88018 +88016", popularity: 340 },
  { brand: "Banglalink", country: "BD", prefixes: "+88019 +88014", popularity: 320 },
  // South-East and East Asia
  {
    brand: "Globe", country: "PH", popularity: 460,
    prefixes: "+63905 +63906 +63915 +63916 +63917 +63926 +63927 +63935 +63936 +63945 +63953 +63954 +63955 +63956 +63965 +63966 +63967 +63975 +63977 +63995 +63997",
    bundles: [["Go+99: 8GB, 7 Days", 99, 8 * 1024, 7], ["Go+149: 12GB, 30 Days", 149, 12 * 1024, 30]],
  },
  {
    brand: "Smart", country: "PH", popularity: 440,
    prefixes: "+63907 +63908 +63909 +63910 +63912 +63918 +63919 +63920 +63921 +63928 +63929 +63930 +63938 +63939 +63946 +63947 +63948 +63949 +63950 +63951 +63961 +63998 +63999",
    bundles: [["Power All 99: 8GB, 7 Days", 99, 8 * 1024, 7]],
  },
  { brand: "DITO", country: "PH", prefixes: "+63895 +63896 +63897 +63898 +63991 +63992 +63993 +63994", popularity: 300 },
  {
    brand: "Telkomsel", country: "ID", popularity: 440,
    prefixes: "+62811 +62812 +62813 +62821 +62822 +62823 +62851 +62852 +62853",
    bundles: [["Internet 12GB, 30 Days", 100000, 12 * 1024, 30], ["Internet 25GB, 30 Days", 150000, 25 * 1024, 30]],
  },
  { brand: "Indosat", country: "ID", prefixes: "+62814 +62815 +62816 +62855 +62856 +62857 +62858", popularity: 380 },
  { brand: "XL", country: "ID", prefixes: "+62817 +62818 +62819 +62859 +62877 +62878", popularity: 360 },
  { brand: "Viettel", country: "VN", prefixes: "+8486 +8496 +8497 +8498 +8432 +8433 +8434 +8435 +8436 +8437 +8438 +8439", popularity: 380 },
  { brand: "Vinaphone", country: "VN", prefixes: "+8488 +8491 +8494 +8481 +8482 +8483 +8484 +8485", popularity: 320 },
  { brand: "MobiFone", country: "VN", prefixes: "+8489 +8490 +8493 +8470 +8476 +8477 +8478 +8479", popularity: 320 },
  { brand: "AIS", country: "TH", prefixes: "+666 +668 +669", popularity: 360 },
  { brand: "TrueMove H", country: "TH", prefixes: "+666 +668 +669", popularity: 340 },
  { brand: "dtac", country: "TH", prefixes: "+666 +668 +669", popularity: 300 },
  {
    brand: "China Mobile", country: "CN", popularity: 400,
    prefixes: "+86134 +86135 +86136 +86137 +86138 +86139 +86147 +86150 +86151 +86152 +86157 +86158 +86159 +86172 +86178 +86182 +86183 +86184 +86187 +86188 +86195 +86198",
  },
  { brand: "China Unicom", country: "CN", prefixes: "+86130 +86131 +86132 +86145 +86155 +86156 +86166 +86167 +86171 +86175 +86176 +86185 +86186 +86196", popularity: 340 },
  // Africa
  {
    brand: "MTN", country: "NG", popularity: 600,
    prefixes: "+234803 +234806 +234703 +234706 +234813 +234816 +234810 +234814 +234903 +234906 +234913 +234916 +2347025 +2347026 +234704",
    bundles: [["2GB, 30 Days", 1500, 2 * 1024, 30], ["3.5GB, 30 Days", 2500, 3584, 30], ["10GB, 30 Days", 4500, 10 * 1024, 30]],
  },
  { brand: "Airtel", country: "NG", prefixes: "+234802 +234808 +234708 +234812 +234701 +234902 +234907 +234901 +234904 +234912", popularity: 520 },
  { brand: "Glo", country: "NG", prefixes: "+234805 +234807 +234705 +234815 +234811 +234905 +234915", popularity: 460 },
  { brand: "9mobile", country: "NG", prefixes: "+234809 +234818 +234817 +234909 +234908", popularity: 340 },
  { brand: "MTN", country: "GH", prefixes: "+23324 +23354 +23355 +23359 +23325 +23353", popularity: 420 },
  { brand: "Telecel", country: "GH", prefixes: "+23320 +23350", popularity: 300 },
  {
    brand: "Safaricom", country: "KE", popularity: 480,
    prefixes: "+25470 +25471 +25472 +254740 +254741 +254742 +254743 +254745 +254746 +254748 +254757 +254758 +254759 +254768 +254769 +25479 +254110 +254111 +254112 +254113 +254114 +254115",
    bundles: [["2.5GB, 7 Days", 300, 2560, 7], ["6GB, 30 Days", 1000, 6 * 1024, 30]],
  },
  { brand: "Airtel", country: "KE", prefixes: "+25473 +254750 +254751 +254752 +254753 +254754 +254755 +254756 +254762 +25478 +25410", popularity: 360 },
  { brand: "MTN", country: "ZA", prefixes: "+2783 +2773 +2778 +2763", popularity: 380 },
  {
    brand: "Vodacom", country: "ZA", prefixes: "+2782 +2772 +2776 +2779 +2771 +2760", popularity: 400,
    bundles: [["1GB, 30 Days", 99, 1024, 30], ["5GB, 30 Days", 299, 5 * 1024, 30]],
  },
  { brand: "Cell C", country: "ZA", prefixes: "+2784 +2774", popularity: 280 },
  { brand: "Vodafone", country: "EG", prefixes: "+2010", popularity: 380 },
  { brand: "Orange", country: "EG", prefixes: "+2012", popularity: 340 },
  { brand: "Etisalat", country: "EG", prefixes: "+2011", popularity: 300, label: "Etisalat (e&)" },
  { brand: "Orange", country: "MA", prefixes: "+2126 +2127", popularity: 320 },
  { brand: "Maroc Telecom", country: "MA", prefixes: "+2126 +2127", popularity: 340 },
  { brand: "inwi", country: "MA", prefixes: "+2126 +2127", popularity: 280 },
  // Gulf
  { brand: "Etisalat", country: "AE", prefixes: "+97150 +97154 +97156", popularity: 400, label: "Etisalat (e&)" },
  { brand: "du", country: "AE", prefixes: "+97152 +97155 +97158", popularity: 380 },
  { brand: "STC", country: "SA", prefixes: "+96650 +96653 +96655", popularity: 400 },
  { brand: "Mobily", country: "SA", prefixes: "+96654 +96656", popularity: 340 },
  { brand: "Zain", country: "SA", prefixes: "+96658 +96659", popularity: 300 },
];

// prettier-ignore
export const OPERATOR_COLORS: Record<string, Colors> = {
  "AT&T": { bg: "#0057B8", fg: "#FFFFFF" },
  Verizon: { bg: "#000000", fg: "#FFFFFF" },
  "T-Mobile": { bg: "#C2006A", fg: "#FFFFFF" },
  Digicel: { bg: "#C8102E", fg: "#FFFFFF" },
  Flow: { bg: "#1B1464", fg: "#FFFFFF" },
  Claro: { bg: "#DA291C", fg: "#FFFFFF" },
  Altice: { bg: "#1A1A1A", fg: "#FFFFFF" },
  Natcom: { bg: "#00599C", fg: "#FFFFFF" },
  Tigo: { bg: "#00377B", fg: "#FFFFFF" },
  Telcel: { bg: "#00377C", fg: "#FFFFFF" },
  Movistar: { bg: "#0B2739", fg: "#5BC500" },
  Vivo: { bg: "#660099", fg: "#FFFFFF" },
  TIM: { bg: "#004691", fg: "#FFFFFF" },
  Personal: { bg: "#1A1A1A", fg: "#00B5E2" },
  EE: { bg: "#007B85", fg: "#FFFFFF" },
  Vodafone: { bg: "#E60000", fg: "#FFFFFF" },
  O2: { bg: "#0019A5", fg: "#FFFFFF" },
  Three: { bg: "#1A1A1A", fg: "#FFFFFF" },
  Lebara: { bg: "#1B365D", fg: "#FFFFFF" },
  Orange: { bg: "#1A1A1A", fg: "#FF7900" },
  SFR: { bg: "#E2001A", fg: "#FFFFFF" },
  "Bouygues Telecom": { bg: "#00295F", fg: "#FFFFFF" },
  "Free Mobile": { bg: "#1A1A1A", fg: "#FFFFFF" },
  Telekom: { bg: "#E20074", fg: "#FFFFFF" },
  WindTre: { bg: "#1A1A1A", fg: "#FF6A00" },
  Iliad: { bg: "#C8001E", fg: "#FFFFFF" },
  Play: { bg: "#3B1D6E", fg: "#FFFFFF" },
  Plus: { bg: "#00804A", fg: "#FFFFFF" },
  Turkcell: { bg: "#0B2C6F", fg: "#FFC900" },
  "Türk Telekom": { bg: "#003A70", fg: "#FFFFFF" },
  Kyivstar: { bg: "#00369C", fg: "#FFD200" },
  lifecell: { bg: "#1A1A1A", fg: "#FFD200" },
  Airtel: { bg: "#D1111C", fg: "#FFFFFF" },
  Jio: { bg: "#0F3CC9", fg: "#FFFFFF" },
  Vi: { bg: "#1A1A1A", fg: "#FFD500" },
  Jazz: { bg: "#C8102E", fg: "#FFFFFF" },
  Zong: { bg: "#6C1D45", fg: "#FFFFFF" },
  Telenor: { bg: "#00539F", fg: "#FFFFFF" },
  Ufone: { bg: "#1A1A1A", fg: "#F58220" },
  Grameenphone: { bg: "#005DAA", fg: "#FFFFFF" },
  Robi: { bg: "#B8001F", fg: "#FFFFFF" },
  Banglalink: { bg: "#F36F21", fg: "#1A1A1A" },
  Globe: { bg: "#0033A0", fg: "#FFFFFF" },
  Smart: { bg: "#00704A", fg: "#FFFFFF" },
  DITO: { bg: "#B00020", fg: "#FFFFFF" },
  Telkomsel: { bg: "#C4161C", fg: "#FFFFFF" },
  Indosat: { bg: "#FFD100", fg: "#1A1A1A" },
  XL: { bg: "#003C8F", fg: "#FFFFFF" },
  Viettel: { bg: "#B7002E", fg: "#FFFFFF" },
  Vinaphone: { bg: "#005BAA", fg: "#FFFFFF" },
  MobiFone: { bg: "#00468C", fg: "#FFFFFF" },
  AIS: { bg: "#1A1A1A", fg: "#B2D235" },
  "TrueMove H": { bg: "#C8102E", fg: "#FFFFFF" },
  dtac: { bg: "#0A5DA8", fg: "#FFFFFF" },
  "China Mobile": { bg: "#0062AC", fg: "#FFFFFF" },
  "China Unicom": { bg: "#C8102E", fg: "#FFFFFF" },
  MTN: { bg: "#FFCB05", fg: "#1A1A1A" },
  Glo: { bg: "#1E7B34", fg: "#FFFFFF" },
  "9mobile": { bg: "#006B3F", fg: "#FFFFFF" },
  Telecel: { bg: "#C8102E", fg: "#FFFFFF" },
  Safaricom: { bg: "#00753A", fg: "#FFFFFF" },
  Vodacom: { bg: "#CC0000", fg: "#FFFFFF" },
  "Cell C": { bg: "#1A1A1A", fg: "#FFFFFF" },
  Etisalat: { bg: "#E00800", fg: "#FFFFFF" },
  "Maroc Telecom": { bg: "#004C97", fg: "#FFFFFF" },
  inwi: { bg: "#7A1A6B", fg: "#FFFFFF" },
  du: { bg: "#00205B", fg: "#FFFFFF" },
  STC: { bg: "#4F008C", fg: "#FFFFFF" },
  Mobily: { bg: "#00338D", fg: "#FFFFFF" },
  Zain: { bg: "#1A1A1A", fg: "#FFFFFF" },
};

export const TOPUP_CATEGORIES = ["mobile", "top-up", "airtime"];

export const TOPUP_REDEMPTION =
  "1. Enter the {operator} mobile number to top up, with its country code ({example}...).\n" +
  "2. Pick an amount and pay.\n" +
  "3. The top-up is credited to the number you entered within minutes, and {operator} usually sends a confirmation SMS.\n" +
  "Check the number carefully: a top-up sent to a wrong number cannot be reversed. Only prepaid (pay-as-you-go) {operator} lines in {country} can be topped up.";

// ---------------------------------------------------------------------------------------------------------------
// Test family
// ---------------------------------------------------------------------------------------------------------------

export const TEST_BRAND = "Test Products";
export const TEST_COLORS: Colors = { bg: "#4B5563", fg: "#FFFFFF" };
