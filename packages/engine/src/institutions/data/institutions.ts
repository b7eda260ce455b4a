/**
 * The banks a payer can choose for a bank authorisation (the `/institutions` resource).
 *
 * Sources and choices:
 * - names and BICs are the banks' own (their SWIFT/BIC codes as published by the banks); an id
 *   is `<SHORT_NAME>_<BIC>`, upper case, so ids are stable and readable;
 * - `sort_code_prefixes` (UK only) are the leading digits of sort codes allocated to each bank by
 *   Pay.UK's sort code directory, as commonly published; they serve the `branch_code` filter,
 *   where the longest matching prefix names the bank. They are a coarse map, not the EISCD;
 * - `roles` are this engine's names for the open banking features an institution supports:
 *   `institutions_list` (shown in institution lists), `heartbeat` (its API health is monitored),
 *   `pis` (payment initiation: single payments), `vrp_sweeping` (variable recurring payments for
 *   sweeping, UK only), `read_refund_account` (the payer's account details can be read back to
 *   refund them). The real API's type declarations do not enumerate roles;
 * - `schemes` are the payment schemes the institution can be authorised on;
 * - `limits` is null throughout: banks' per-payment and daily open banking limits are not
 *   published in a form this dataset can vouch for, and the spec allows null;
 * - `icon_url` and `logo_url` are SVG images served by this server (`HOSTED_PAGE_PATHS`), generated
 *   from the institution's name (docs/pages.md); no image host is assumed.
 */

export const INSTITUTION_ROLES = ["institutions_list", "heartbeat", "pis", "vrp_sweeping", "read_refund_account"] as const
export type InstitutionRole = (typeof INSTITUTION_ROLES)[number]

export const INSTITUTION_STATUSES = ["enabled", "disabled", "temporarily_disabled"] as const
export type InstitutionStatus = (typeof INSTITUTION_STATUSES)[number]

export const INSTITUTION_SCHEMES = ["faster_payments", "sepa_credit_transfer", "sepa_instant_credit_transfer"] as const
export type InstitutionScheme = (typeof INSTITUTION_SCHEMES)[number]

export interface InstitutionRecord {
  readonly id: string
  readonly name: string
  readonly bic: string
  readonly country_code: string
  readonly roles: ReadonlyArray<InstitutionRole>
  readonly schemes: ReadonlyArray<InstitutionScheme>
  readonly status: InstitutionStatus
  readonly autocompletes_collect_bank_account: boolean
  readonly sort_code_prefixes: ReadonlyArray<string>
}

const UK_ROLES: ReadonlyArray<InstitutionRole> = ["institutions_list", "heartbeat", "pis", "vrp_sweeping", "read_refund_account"]
const EU_ROLES: ReadonlyArray<InstitutionRole> = ["institutions_list", "heartbeat", "pis", "read_refund_account"]

const uk = (short: string, name: string, bic: string, sortCodePrefixes: ReadonlyArray<string>): InstitutionRecord => ({
  id: `${short}_${bic}`,
  name,
  bic,
  country_code: "GB",
  roles: UK_ROLES,
  schemes: ["faster_payments"],
  status: "enabled",
  // UK banks return the payer's account after a payment, which completes collect_bank_account.
  autocompletes_collect_bank_account: true,
  sort_code_prefixes: sortCodePrefixes
})

const eu = (short: string, name: string, bic: string, country: string, instant: boolean): InstitutionRecord => ({
  id: `${short}_${bic}`,
  name,
  bic,
  country_code: country,
  roles: EU_ROLES,
  schemes: instant ? ["sepa_credit_transfer", "sepa_instant_credit_transfer"] : ["sepa_credit_transfer"],
  status: "enabled",
  autocompletes_collect_bank_account: true,
  sort_code_prefixes: []
})

export const INSTITUTIONS: ReadonlyArray<InstitutionRecord> = [
  // United Kingdom
  uk("BARCLAYS", "Barclays", "BUKBGB22", ["20"]),
  uk("HSBC", "HSBC UK", "HBUKGB4B", ["40"]),
  uk("FIRST_DIRECT", "First Direct", "MIDLGB22", ["4047"]),
  uk("LLOYDS", "Lloyds Bank", "LOYDGB2L", ["30", "77"]),
  uk("HALIFAX", "Halifax", "HLFXGB21", ["11"]),
  uk("BANK_OF_SCOTLAND", "Bank of Scotland", "BOFSGB21", ["80"]),
  uk("NATWEST", "NatWest", "NWBKGB2L", ["50", "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62"]),
  uk("RBS", "Royal Bank of Scotland", "RBOSGB2L", ["16", "83"]),
  uk("SANTANDER_UK", "Santander UK", "ABBYGB2L", ["09", "72"]),
  uk("NATIONWIDE", "Nationwide Building Society", "NAIAGB21", ["0700"]),
  uk("MONZO", "Monzo", "MONZGB2L", ["040004"]),
  uk("STARLING", "Starling Bank", "SRLGGB2L", ["608371"]),
  uk("REVOLUT", "Revolut", "REVOGB21", ["040075"]),
  uk("TSB", "TSB", "TSBSGB2A", ["87"]),
  uk("METRO", "Metro Bank", "MYMBGB2L", ["230580"]),
  uk("COOPERATIVE", "The Co-operative Bank", "CPBKGB22", ["0890", "0891", "0892", "0893", "0894"]),
  uk("VIRGIN_MONEY", "Virgin Money", "CLYDGB21", ["82", "05"]),
  uk("CHASE_UK", "Chase UK", "CHASGB2L", ["608407"]),
  uk("ULSTER", "Ulster Bank", "ULSBGB2B", ["98"]),
  uk("DANSKE_UK", "Danske Bank UK", "DABAGB2B", ["95"]),
  // Eurozone
  eu("DEUTSCHE_BANK", "Deutsche Bank", "DEUTDEFF", "DE", true),
  eu("COMMERZBANK", "Commerzbank", "COBADEFF", "DE", true),
  eu("N26", "N26", "NTSBDEB1", "DE", true),
  eu("DZ_BANK", "DZ Bank", "GENODEFF", "DE", true),
  eu("ING_NL", "ING", "INGBNL2A", "NL", true),
  eu("ABN_AMRO", "ABN AMRO", "ABNANL2A", "NL", true),
  eu("RABOBANK", "Rabobank", "RABONL2U", "NL", true),
  eu("BNP_PARIBAS", "BNP Paribas", "BNPAFRPP", "FR", true),
  eu("SOCIETE_GENERALE", "Société Générale", "SOGEFRPP", "FR", true),
  eu("CREDIT_AGRICOLE", "Crédit Agricole", "AGRIFRPP", "FR", false),
  eu("SANTANDER_ES", "Santander", "BSCHESMM", "ES", true),
  eu("BBVA", "BBVA", "BBVAESMM", "ES", true),
  eu("CAIXABANK", "CaixaBank", "CAIXESBB", "ES", true),
  eu("SABADELL", "Banco Sabadell", "BSABESBB", "ES", true),
  eu("UNICREDIT", "UniCredit", "UNCRITMM", "IT", true),
  eu("INTESA_SANPAOLO", "Intesa Sanpaolo", "BCITITMM", "IT", true),
  eu("KBC", "KBC", "KREDBEBB", "BE", true),
  eu("BELFIUS", "Belfius", "GKCCBEBB", "BE", true),
  eu("ING_BE", "ING Belgium", "BBRUBEBB", "BE", true),
  eu("BANK_OF_IRELAND", "Bank of Ireland", "BOFIIE2D", "IE", true),
  eu("AIB", "AIB", "AIBKIE2D", "IE", true),
  eu("ERSTE", "Erste Bank", "GIBAATWW", "AT", true),
  eu("NORDEA_FI", "Nordea", "NDEAFIHH", "FI", true),
  eu("OP", "OP Financial Group", "OKOYFIHH", "FI", true),
  eu("MILLENNIUM_BCP", "Millennium bcp", "BCOMPTPL", "PT", true),
  eu("CGD", "Caixa Geral de Depósitos", "CGDIPTPL", "PT", true)
]
