/**
 * The real countries (ISO 3166-1 alpha-2, the officially assigned codes) and the shape of the
 * postal codes of those whose shape is fixed and well known. A payment page takes an address only
 * in a country that exists, with a postcode that could be that country's: a made-up code such as
 * `ZZ`, or a UK postcode on a US address, is a typing slip or a probe, never a parcel we can send.
 */

// deno-fmt-ignore
const CODES = [
  "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ",
  "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS",
  "BT", "BV", "BW", "BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN",
  "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK", "DM", "DO", "DZ", "EC", "EE",
  "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR", "GA", "GB", "GD", "GE", "GF",
  "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT", "GU", "GW", "GY", "HK", "HM",
  "HN", "HR", "HT", "HU", "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT", "JE", "JM",
  "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC",
  "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY", "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK",
  "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ", "NA",
  "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG",
  "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY", "QA", "RE", "RO", "RS", "RU", "RW",
  "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS",
  "ST", "SV", "SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO",
  "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG", "VI",
  "VN", "VU", "WF", "WS", "YE", "YT", "ZA", "ZM", "ZW",
] as const;

const COUNTRY_CODES: ReadonlySet<string> = new Set(CODES);

/** True when `code` is an assigned ISO 3166-1 alpha-2 country code (upper case). */
export function isCountryCode(code: string): boolean {
  return COUNTRY_CODES.has(code);
}

/** A US ZIP code, or ZIP+4. */
export const US_ZIP = /^\d{5}(-\d{4})?$/;

/**
 * Postcode shapes of countries whose format is fixed (national postal services' own formats),
 * spaces and letter case as people type them. A country not listed takes any postcode of letters,
 * digits, spaces and dashes: guessing a format wrongly would refuse a real address.
 */
const POSTCODES: Record<string, RegExp> = {
  US: US_ZIP,
  CA: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i,
  GB: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i,
  DE: /^\d{5}$/,
  FR: /^\d{5}$/,
  IT: /^\d{5}$/,
  ES: /^\d{5}$/,
  NL: /^\d{4} ?[A-Z]{2}$/i,
  BE: /^\d{4}$/,
  AT: /^\d{4}$/,
  CH: /^\d{4}$/,
  DK: /^\d{4}$/,
  NO: /^\d{4}$/,
  AU: /^\d{4}$/,
  JP: /^\d{3}-?\d{4}$/,
  SE: /^\d{3} ?\d{2}$/,
  PL: /^\d{2}-\d{3}$/,
};

/** Any postcode: letters, digits, spaces and dashes, starting with a letter or digit. */
const ANY_POSTCODE = /^[A-Z\d][A-Z\d -]{0,11}$/i;

/**
 * True when `postcode` could be a postcode of `country`: its country's shape where that is fixed,
 * otherwise letters, digits, spaces and dashes, or none (many countries have no postcodes).
 */
export function fitsCountry(country: string, postcode: string): boolean {
  const shape = POSTCODES[country];
  if (shape) return shape.test(postcode);
  return postcode === "" || ANY_POSTCODE.test(postcode);
}
