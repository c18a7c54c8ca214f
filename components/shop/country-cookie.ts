/** The cookie that remembers the country a shopper picked (read by the server, written by CountrySelect). */
export const COUNTRY_COOKIE = "country";
