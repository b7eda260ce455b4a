import { REFERENCE_SOURCES } from "./reference-sources.ts"

/**
 * The description of a field of the API, and where it comes from, in this order:
 *
 * 1. `spec`: the API reference's own note on that resource's field (its "Resources and their
 *    fields" tables, copied into `reference-sources.ts` by `scripts/reference-sources.ts`);
 * 2. `conventions`: the reference's conventions that hold for all resources (identifiers,
 *    timestamps, amounts, metadata, currencies, country codes, links, list `meta`);
 * 3. `glossary`: paykit's own words for the fields the reference names without describing them
 *    (`GLOSSARY` below);
 * 4. `derived`: a sentence made from the field's name, its resource and its Schema (its values,
 *    its format), for every field the three above do not cover.
 *
 * The installed `gocardless-nodejs` carries no per-field comments (its `Types.d.ts` has one line
 * per type, "Type for a payment resource."), so it names the fields but cannot describe them.
 */

export type DescriptionSource = "spec" | "conventions" | "glossary" | "derived"

export interface FieldText {
  readonly text: string
  readonly source: DescriptionSource
}

const SPEC_FIELDS: Readonly<Record<string, Readonly<Record<string, { readonly text: string }>>>> = REFERENCE_SOURCES.fields

const words = (name: string): string => name.replace(/_/g, " ")

/** `payments` → "payment"; `billing_request_flows` → "billing request flow". */
export const singularWords = (key: string): string => words(key.replace(/ies$/, "y").replace(/(ch|sh|x|ss)es$/, "$1").replace(/s$/, ""))

const CONVENTIONS: Readonly<Record<string, string>> = {
  id: "Unique identifier of the resource, a string beginning with its prefix.",
  created_at: "Fixed timestamp (ISO 8601 UTC, millisecond precision) of when the resource was created.",
  updated_at: "Timestamp (ISO 8601 UTC) of the resource's last change.",
  metadata: "Key-value store of custom data: at most 3 keys, key names up to 50 characters, values up to 500 characters.",
  currency: "ISO 4217 currency code.",
  country_code: "ISO 3166-1 alpha-2 country code.",
  amount: "Amount in the lowest denomination of the currency (pence, cents): an integer in minor units.",
  app_fee: "The partner app's fee, in minor units, deducted from the amount; at most half of it. Only a partner app's access token may set it.",
  links: "Identifiers of the related resources.",
  meta: "Where this page of the list is: its cursors and its page size.",
  cursors: "The cursors of this page: pass `before` or `after` as the query parameter of the same name for the previous or next page.",
  before: "Cursor for the page before this one (the id of its first item), or null at the start.",
  after: "Cursor for the page after this one (the id of its last item), or null at the end.",
  limit: "Number of items on a page.",
  data: "The action's parameters (the official client sends them under `data`)."
}

/** paykit's words for fields the reference names without describing; each a fact of the engine's rules or of the spec's prose. */
const GLOSSARY: Readonly<Record<string, string>> = {
  status: "The resource's status; see its states in the reference.",
  scheme: "The Direct Debit or payment scheme: `ach`, `autogiro`, `bacs`, `becs`, `becs_nz`, `betalingsservice`, `faster_payments`, `pad`, `pay_to` or `sepa_core`.",
  reference: "The reference that appears on the payer's bank statement.",
  description: "Human-readable description.",
  name: "Name of the resource.",
  email: "Email address.",
  given_name: "First name. Required unless a `company_name` is given.",
  family_name: "Surname. Required unless a `company_name` is given.",
  company_name: "Company name. Required unless `given_name` and `family_name` are given.",
  address_line1: "First line of the address.",
  address_line2: "Second line of the address.",
  address_line3: "Third line of the address.",
  city: "City of the address.",
  region: "Region, county or department of the address; for US addresses a 2-letter state code.",
  postal_code: "Postal code of the address.",
  phone_number: "Phone number in ITU E.123 format, with its country code.",
  language: "ISO 639-1 language code of the notifications sent to the customer.",
  swedish_identity_number: "Swedish customers only: personnummer, samordningsnummer or organisationsnummer; needed for SEK accounts.",
  danish_identity_number: "Danish customers only: CPR or CVR number; needed for DKK accounts.",
  account_holder_name: "Name of the bank account's holder, as the bank knows it (at most 18 characters for Bacs).",
  account_number: "Bank account number (local details).",
  account_number_ending: "The last few digits of the account number, the rest withheld.",
  account_number_suffix: "Account number suffix (NZD accounts only).",
  account_type: "Bank account type, `savings` or `checking`: required for USD accounts, refused otherwise.",
  bank_code: "Bank code (local details).",
  branch_code: "Branch code, such as a sort code (local details).",
  iban: "International Bank Account Number; not accepted for SEK accounts.",
  bic: "ISO 9362 SWIFT BIC of the account's bank.",
  bank_name: "Name of the bank the account is held with, when known.",
  enabled: "Whether the resource can be used; disabled resources stay readable.",
  retry_if_possible: "Whether failed payments are retried automatically (intelligent retries); default false.",
  charge_date: "Date (YYYY-MM-DD) on which the payment is collected from the payer's account, rolled to a business day.",
  start_date: "First date of the schedule (YYYY-MM-DD).",
  end_date: "Last date of the schedule (YYYY-MM-DD), or none.",
  interval: "Number of `interval_unit`s between charges; at least 1.",
  interval_unit: "Unit of the schedule's interval: `weekly`, `monthly` or `yearly`.",
  day_of_month: "Day of the month to charge on: 1 to 28, or -1 for the last day.",
  month: "Month to charge in, lowercase (`january` to `december`); yearly schedules only.",
  count: "Total number of payments to take.",
  payment_reference: "Reference set on each payment created.",
  url: "URL to send the payer to, or to read the resource from.",
  redirect_uri: "URL the payer is sent back to afterwards.",
  expires_at: "Timestamp after which the resource can no longer be used.",
  institution: "Identifier of the bank (institution) the payer authorises with.",
  authorisation_source: "How the payer gave the mandate: `web`, `telephone` or `paper` (ACH's SEC code).",
  consent_type: "Consent the payer gives for the mandate (PayTo and VRP): one-off, recurring or standing.",
  funds_settlement: "How the creditor is paid: `managed` (through GoCardless's payouts) or `direct`.",
  customer_billing_detail: "The customer's billing details (address and identity numbers) used by the scheme.",
  bank_account_token: "A token of bank details collected elsewhere, used instead of the details themselves.",
  payer_name_verification_result: "Result of checking the account holder name against the bank's records.",
  trusted_recipient: "Whether the payer marked this recipient as trusted (variable recurring payments).",
  total_amount: "Total amount of the schedule's payments, in minor units.",
  message: "Human-readable message.",
  field: "The field the error is about.",
  type: "The kind of the resource.",
  verify: "When to verify the mandate with an open-banking check: `minimum`, `recommended`, `when_available` or `always`.",
  constraints: "Limits the payer agreed to for payments under the mandate (PayTo, VRP).",
  sweeping: "Whether the mandate is a sweeping (own-account) variable recurring payments mandate.",
  actions: "The steps the billing request still needs, each with its status.",
  fallback_enabled: "Whether the billing request may fall back from an instant payment to Direct Debit.",
  fallback_occurred: "Whether the billing request fell back from an instant payment to Direct Debit.",
  purpose_code: "Purpose of the mandate or payment (required for PayTo): `mortgage`, `utility`, `loan`, `dependant_support`, `gambling`, `retail`, `salary`, `personal`, `government`, `pension`, `tax` or `other`.",
  payment_purpose_code: "ISO 20022 purpose code of the payment.",
  payment_context_code: "Context of the payment (open banking).",
  payer_requested_dual_signature: "Whether the payer asked for a second signatory; they are emailed instructions once the other actions are done.",
  ip_address: "IP address of the payer who set the mandate up (ACH: required for web mandates).",
  exchange_rate: "Exchange rate applied, up to 10 decimal places; present only after payout.",
  estimated_exchange_rate: "Estimated exchange rate, up to 10 decimal places; present only before payout and varies with the market.",
  fx: "Foreign-exchange details, when the amount is exchanged into another currency.",
  fx_amount: "Amount after exchange, in minor units of `fx_currency`; present only after payout.",
  fx_currency: "Currency the amount is exchanged into, present only when exchanged.",
  resources: "The resources the billing request created or holds: customer, billing detail and bank account.",
  schemes: "Schemes the resource can be used with.",
  upcoming_payments: "Next payments the schedule will create (at most 10), each a charge date and an amount.",
  earliest_charge_date_after_resume: "Earliest charge date after a paused subscription resumes; present only while paused.",
  next_possible_charge_date: "Earliest date a payment created now under the mandate could be charged.",
  minimum_advance_notice: "Days of advance notice the payer is given before a charge.",
  amount_refunded: "Total amount refunded from the payment so far, in minor units.",
  faster_ach: "Whether the ACH payment is sent by Faster ACH (same-day).",
  psu_interaction_type: "Whether the payer is present (`in_session`) or not (`off_session`) when the payment is made.",
  deducted_fees: "Fees deducted from the payout, in minor units (may be negative when fees are refunded).",
  payout_type: "`merchant` (the creditor's revenue) or `partner` (partner app fees).",
  arrival_date: "Date the payout is due to arrive, once paid; null until then.",
  tax_currency: "Currency in which tax is paid to the tax authority, when tax applies.",
  verification_status: "How far the creditor's verification has got: `successful`, `in_review` or `action_required`.",
  secret: "The webhook endpoint's signing secret, shown only in the answer to its creation.",
  is_test: "Whether the webhook was sent as a test.",
  successful: "Whether the delivery was answered with a 2xx status.",
  resource_type: "The list key of the resource the event is about (`payments`, `mandates`…).",
  action: "What happened to the resource (`created`, `confirmed`, `failed`…).",
  details: "Why the event happened: its origin, cause and description.",
  origin: "Who caused the event: `bank`, `api`, `gocardless`, `customer` or `payer`.",
  cause: "Machine-readable cause of the event.",
  reason_code: "Scheme reason code, when the bank gave one.",
  will_attempt_retry: "Whether a failed payment will be retried automatically.",
  resource_metadata: "The metadata of the resource the event is about, as it was when the event was made.",
  error: "The error.",
  code: "The HTTP status of the error.",
  errors: "Each problem found: its reason, message and, for fields, the field and its JSON pointer.",
  documentation_url: "Where the error's reason is explained in these docs.",
  request_id: "The request's id (also its `X-Request-Id` header): quote it when asking about the request.",
  reason: "Machine-readable reason: see the error reasons in these docs.",
  request_pointer: "JSON pointer to the part of the request the error is about."
}

/** What the field's Schema says beyond its name: its values, its kind. */
export interface FieldShape {
  readonly enum?: ReadonlyArray<unknown>
  readonly type?: string
  readonly format?: string
}

const listOf = (values: ReadonlyArray<unknown>): string => values.map((v) => `\`${String(v)}\``).join(", ")

/** A sentence from the field's name and Schema, for the fields no source describes. */
const derived = (resource: string, path: ReadonlyArray<string>, shape: FieldShape): string => {
  const name = path.at(-1) ?? ""
  const parent = path.at(-2)
  const owner = parent === undefined ? `the ${singularWords(resource)}` : `the ${words(parent)}`
  if (parent === "links") return `ID of the ${words(name)} linked to ${path.length > 2 ? owner : `this ${singularWords(resource)}`}.`
  const values = shape.enum === undefined ? "" : ` One of ${listOf(shape.enum)}.`
  if (name.endsWith("_at")) return `Timestamp (ISO 8601 UTC) of when ${owner} was ${words(name.slice(0, -3))}.${values}`
  if (name.endsWith("_date")) return `The ${words(name)} of ${owner} (YYYY-MM-DD).${values}`
  if (name.endsWith("_url") || name.endsWith("_uri")) return `The ${words(name.slice(0, -4))} URL of ${owner}.`
  if (shape.type === "boolean") return `Whether ${owner} has ${words(name)} set (true or false).`
  if (name.endsWith("_amount") || name.startsWith("amount_")) return `The ${words(name)} of ${owner}, in minor units.`
  if (shape.type === "array") return `The ${words(name)} of ${owner}.${values}`
  return `The ${words(name)} of ${owner}.${values}`
}

/**
 * The description of the field at `path` (its dotted names below the resource key) of the
 * resource `resource`, with its source.
 */
export const fieldText = (resource: string, path: ReadonlyArray<string>, shape: FieldShape): FieldText => {
  const name = path.at(-1) ?? ""
  const spec = SPEC_FIELDS[resource]?.[path.join(".")] ?? SPEC_FIELDS[resource]?.[name]
  if (spec !== undefined) return { text: spec.text, source: "spec" }
  const parent = path.at(-2)
  if (parent !== "links" && name in CONVENTIONS) return { text: CONVENTIONS[name] ?? "", source: "conventions" }
  if (parent !== "links" && name in GLOSSARY) {
    const values = shape.enum === undefined || (GLOSSARY[name] ?? "").includes("`") ? "" : ` One of ${listOf(shape.enum)}.`
    return { text: `${GLOSSARY[name] ?? ""}${values}`, source: "glossary" }
  }
  return { text: derived(resource, path, shape), source: "derived" }
}
