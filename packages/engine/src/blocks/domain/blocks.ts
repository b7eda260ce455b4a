import { Schema } from "effect"
import { ID_PREFIXES, isIdOf } from "@paykit/core"
import { Description, Email, issue, type RuleIssue, withRules } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString } from "../../kernel/fields.ts"
import { listFields } from "../../kernel/list-params.ts"

/** The API resource key of blocks: the root of their requests' field errors. */
export const BLOCKS_ROOT = "blocks"

/** What a block matches, as the real API (`BlockBlockType`). */
export const BLOCK_TYPES = ["email", "email_domain", "bank_account", "bank_name"] as const
export type BlockType = (typeof BLOCK_TYPES)[number]
/** Why it was made (`BlockReasonType`). */
export const BLOCK_REASON_TYPES = ["identity_fraud", "no_intent_to_pay", "unfair_chargeback", "other"] as const
/** What `block_by_ref` blocks the details of (`BlockReferenceType`). */
export const BLOCK_REFERENCE_TYPES = ["customer", "mandate"] as const

export const Block = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  updated_at: CreatedAt,
  active: Schema.Boolean,
  block_type: Schema.Literals(BLOCK_TYPES),
  reason_type: Schema.Literals(BLOCK_REASON_TYPES),
  reason_description: NullableString,
  resource_reference: Schema.String
})
export type Block = typeof Block.Type

export const blocks = defineResource({
  name: "blocks",
  idPrefix: ID_PREFIXES.block,
  schema: Block,
  filters: {
    created_at: (r: Block) => r.created_at,
    block_type: (r: Block) => r.block_type,
    reason_type: (r: Block) => r.reason_type
  }
})

/**
 * What a block matches, kept beside it and never served: `<block_type>:<value>`, the lower-cased
 * email, domain or bank name, or the bank account's fingerprint. Keyed by the block's id; `active`
 * follows the block's, so the screen reads only these.
 */
export const BlockMatch = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  match: Schema.String,
  active: Schema.Boolean
})
export type BlockMatch = typeof BlockMatch.Type

export const blockMatches = defineResource({
  name: "block_matches",
  idPrefix: null,
  schema: BlockMatch,
  filters: {
    created_at: (r: BlockMatch) => r.created_at,
    match: (r: BlockMatch) => r.match
  }
})

/**
 * The details of a customer bank account that a `bank_account` or `bank_name` block matches,
 * kept when the account is made (the account itself keeps only the number's ending): a one-way
 * fingerprint of its details and its bank's name. Keyed by the account's id.
 */
export const BankAccountFingerprint = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  fingerprint: Schema.String,
  bank_name: NullableString
})
export type BankAccountFingerprint = typeof BankAccountFingerprint.Type

export const bankAccountFingerprints = defineResource({
  name: "bank_account_fingerprints",
  idPrefix: null,
  schema: BankAccountFingerprint,
  filters: { created_at: (r: BankAccountFingerprint) => r.created_at }
})

const BlockFields = {
  active: Schema.optionalKey(Schema.Boolean),
  reason_type: Schema.Literals(BLOCK_REASON_TYPES),
  reason_description: Schema.optionalKey(Description)
} as const

/** An email domain: labels of letters, digits and hyphens joined by dots. */
const EmailDomain = Schema.String.check(Schema.makeFilter((s: string) => /^(?!-)[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+$/.test(s), {
  message: "must be an email domain such as example.com"
}))
const isBankAccountId = (s: string) => isIdOf(ID_PREFIXES.customer_bank_account, s)

/** What `resource_reference` must be for each block type: an email, a domain, or a customer bank account's id. */
const referenceMessage = (type: BlockType, reference: string): string | undefined => {
  switch (type) {
    case "email":
      return Schema.is(Email)(reference) ? undefined : "must be an email address for an email block"
    case "email_domain":
      return Schema.is(EmailDomain)(reference) ? undefined : "must be an email domain such as example.com for an email_domain block"
    case "bank_account":
    case "bank_name":
      return isBankAccountId(reference) ? undefined : `must be a customer bank account id (BA...) for a ${type} block`
  }
}

/** The real API: a block whose reason is `other` must say what it is. */
const reasonIssues = (b: { readonly reason_type: string; readonly reason_description?: string }): ReadonlyArray<RuleIssue> =>
  b.reason_type !== "other" || (b.reason_description ?? "").trim() !== "" ? [] : [issue(["reason_description"], "is required when reason_type is other")]

/** `POST /blocks`. `reason_description` is required when `reason_type` is `other`. */
export const BlockCreateRequest = withRules(Schema.Struct({
  ...BlockFields,
  block_type: Schema.Literals(BLOCK_TYPES),
  resource_reference: Schema.String
}), [
  (b) => {
    const message = referenceMessage(b.block_type, b.resource_reference)
    return message === undefined ? [] : [issue(["resource_reference"], message)]
  },
  reasonIssues
])
export type BlockCreateRequest = typeof BlockCreateRequest.Type

/** `POST /blocks/block_by_ref`: blocks the email and bank accounts of a customer, or of a mandate's customer and account. */
export const BlockByRefRequest = withRules(Schema.Struct({
  ...BlockFields,
  reference_type: Schema.Literals(BLOCK_REFERENCE_TYPES),
  reference_value: Schema.String
}), [
  (b) => isIdOf(b.reference_type === "customer" ? ID_PREFIXES.customer : ID_PREFIXES.mandate, b.reference_value)
    ? []
    : [issue(["reference_value"], `must be a ${b.reference_type} id`)],
  reasonIssues
])
export type BlockByRefRequest = typeof BlockByRefRequest.Type

export const BlockListParams = Schema.Struct({
  ...listFields("block"),
  block_type: Schema.optionalKey(Schema.Literals(BLOCK_TYPES)),
  reason_type: Schema.optionalKey(Schema.Literals(BLOCK_REASON_TYPES))
})
export type BlockListParams = typeof BlockListParams.Type
