import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { MANDATE_SCHEMES, newId, newOrganisationId, OrganisationId } from "@paykit/core"
import { CreditorBankAccountCreateRequest, Creditors, decodeCommand, identifierSchemeOf, VerificationDetailCreateRequest } from "@paykit/engine"
import { AccessTokens, hashToken, issueAccessToken } from "@paykit/http"
import { accessTokenMachine, createdState } from "@paykit/machines"
import type { ServerMode, WebhookConfig } from "./config.ts"
import { ensureSandboxEndpoint } from "./webhook-setup.ts"
import { type Organisation, Organisations } from "./organisations.ts"
import { ServerLog } from "./server-log.ts"

/**
 * The first start. A server on an empty store creates one organisation in its mode, with a
 * creditor and a read-write access token, and prints the token: the only time it is ever shown
 * (only its hash is stored). In sandbox mode `PAYKIT_SANDBOX_TOKEN` is used as that token instead of
 * a random one, and on later starts it is added to the sandbox organisation if it is not there yet,
 * so a development set-up can keep one token in its environment.
 */

export class StoreModeMismatch extends Schema.TaggedError<StoreModeMismatch>()("StoreModeMismatch", {
  mode: Schema.String,
  organisation: Schema.String,
  environment: Schema.String
}) {
  override get message(): string {
    return `This store holds the ${this.environment} organisation ${this.organisation}; a ${this.mode} server refuses to serve it (set PAYKIT_MODE=${this.environment}, or use another PAYKIT_DATA_DIR or DATABASE_URL)`
  }
}

/** What the start found or made; `accessToken` is set only when a token was created now. */
export interface BootstrapResult {
  readonly organisation: Organisation
  readonly creditor: string | null
  readonly accessToken: string | undefined
  readonly created: boolean
}

export class Bootstrap extends Context.Service<Bootstrap, BootstrapResult>()("@paykit/server/Bootstrap") {}

export const SANDBOX_ORGANISATION_NAME = "Sandbox organisation"
export const SANDBOX_CREDITOR = { name: "Sandbox Creditor Ltd", country_code: "GB", creditor_type: "company" } as const
/**
 * A sandbox creditor collects on every direct-debit scheme paykit collects on, each with an active
 * scheme identifier (beside its country's Bacs and Faster Payments), so a new user tries SEPA Core
 * or ACH as at once as Bacs.
 */
export const SANDBOX_CREDITOR_OPTIONS = { schemes: [...new Set(MANDATE_SCHEMES.map(identifierSchemeOf))] } as const
/** The sandbox creditor's GBP payout account: GoCardless's sandbox test bank details. */
export const SANDBOX_PAYOUT_ACCOUNT = { account_holder_name: "Sandbox Creditor Ltd", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP" } as const
/** What the sandbox creditor's verification is given, as an integrator would submit it. */
const SANDBOX_VERIFICATION = {
  name: SANDBOX_CREDITOR.name, company_number: "00000000", description: "A sandbox creditor", address_line1: "1 Sandbox Street", city: "London", postal_code: "EC1A 1BB",
  directors: [{ given_name: "Sandy", family_name: "Box", date_of_birth: "1980-01-01", street: "1 Sandbox Street", city: "London", postal_code: "EC1A 1BB", country_code: "GB" }]
} as const

/**
 * The sandbox organisation's first creditor, ready to be paid out as a payment platform's test
 * mode is: its verification details and a GBP payout account submitted, and the review that the
 * daily run would complete completed now. Creditors made through the API keep GoCardless's rules
 * (`action_required` until verified, no payout without a verified payout account).
 */
const readySandboxCreditor = (organisation: OrganisationId) =>
  Effect.gen(function*() {
    const creditors = yield* Creditors
    const creditor = yield* creditors.createWith(organisation, SANDBOX_CREDITOR, SANDBOX_CREDITOR_OPTIONS)
    const links = { creditor: creditor.id }
    const account = yield* decodeCommand(CreditorBankAccountCreateRequest, "creditor_bank_accounts")({ ...SANDBOX_PAYOUT_ACCOUNT, set_as_default_payout_account: true, links })
    const details = yield* decodeCommand(VerificationDetailCreateRequest, "verification_details")({ ...SANDBOX_VERIFICATION, links })
    yield* creditors.createBankAccount(organisation, account)
    yield* creditors.createVerificationDetail(organisation, details)
    yield* creditors.completeReviews(organisation)
    return creditor
  }).pipe(Effect.orDie)

const tokenRecord = (organisation: string, token: string) =>
  Effect.gen(function*() {
    const id = yield* newId("access_token")
    return { id, organisation, scope: "read_write", tokenHash: hashToken(token), status: createdState(accessTokenMachine, "active") } as const
  })

export const bootstrap = (options: {
  readonly mode: ServerMode
  readonly sandboxToken: Option.Option<Redacted.Redacted<string>>
  readonly webhooks?: WebhookConfig | undefined
}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const organisations = yield* Organisations
    const tokens = yield* AccessTokens
    const log = yield* ServerLog
    const given = options.mode === "sandbox" ? Option.map(options.sandboxToken, Redacted.value) : Option.none()
    // One transaction: two processes starting on one empty PostgreSQL database make one organisation
    // (the second waits on the lock, then finds it), and a crash leaves none half made.
    return yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`LOCK TABLE organisations IN EXCLUSIVE MODE`
      const existing = yield* organisations.all
      const mismatch = existing.find((o) => o.environment !== options.mode)
      if (mismatch !== undefined) {
        return yield* new StoreModeMismatch({ mode: options.mode, organisation: mismatch.id, environment: mismatch.environment })
      }
      const first = existing[0]
      if (first !== undefined) {
        if (Option.isSome(given) && (yield* tokens.findByHash(hashToken(given.value))) === undefined) {
          yield* tokens.insert(yield* tokenRecord(first.id, given.value))
          log({ level: "info", msg: "PAYKIT_SANDBOX_TOKEN added to the sandbox organisation", organisation: first.id })
        }
        return { organisation: first, creditor: null, accessToken: undefined, created: false }
      }
      const id = yield* newOrganisationId
      const organisation: Organisation = {
        id,
        name: options.mode === "sandbox" ? SANDBOX_ORGANISATION_NAME : "Organisation",
        environment: options.mode,
        origin: "operator",
        madeByOperator: false
      }
      yield* organisations.insert(organisation)
      const creditor = options.mode === "sandbox" ? yield* readySandboxCreditor(id) : yield* (yield* Creditors).create(id, SANDBOX_CREDITOR)
      const accessToken = Option.isSome(given)
        ? yield* Effect.as(Effect.flatMap(tokenRecord(organisation.id, given.value), tokens.insert), given.value)
        : yield* issueAccessToken({ id: yield* newId("access_token"), organisation: organisation.id, scope: "read_write" })
      return { organisation, creditor: creditor.id, accessToken, created: true }
    }))
  })

/**
 * Runs the first-start check when the server starts, and offers its result (tests read the token);
 * then, in sandbox mode, makes sure of the endpoint `PAYKIT_WEBHOOK_URL` names.
 */
export const BootstrapLive = (options: Parameters<typeof bootstrap>[0]) =>
  Layer.effect(Bootstrap, Effect.gen(function*() {
    const result = yield* bootstrap(options)
    if (options.mode === "sandbox") yield* ensureSandboxEndpoint(OrganisationId(result.organisation.id), options.webhooks)
    return Bootstrap.of(result)
  }))
