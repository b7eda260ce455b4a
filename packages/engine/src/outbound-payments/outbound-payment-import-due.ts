import { Cause, Effect, Exit } from "effect"
import { type Timestamp, timestampToMillis, MILLIS_PER_DAY, type StorageError } from "@paykit/core"
import { eq, oneOf } from "../kernel/ports/list-query.ts"
import type { NameVerificationResult, NameVerifier } from "../kernel/ports/name-verifier.ts"
import type { Transactor, Versioned } from "../kernel/ports/repository.ts"
import type { CustomerBankAccountRepository } from "../customers/repositories.ts"
import type { CustomerBankAccount } from "../customers/domain/customer-bank-accounts.ts"
import type { EntryCounts, OutboundPaymentImport, OutboundPaymentImportEntry } from "./domain/outbound-payment-imports.ts"
import { type DailyItems, idOfVersioned } from "../due-work/daily-items.ts"
import { save } from "../kernel/support.ts"
import { entriesOf, type EntryStore, type ImportStore, moveImport, zeroCounts } from "./outbound-payment-import-moves.ts"

/**
 * An import nobody authorises is cancelled (`expired` event) this long after its creation. The
 * spec says unauthorised imports expire automatically but gives no period; seven days is this
 * engine's choice.
 */
export const OUTBOUND_PAYMENT_IMPORT_AUTHORISATION_WINDOW_DAYS = 7
export const IMPORT_AUTHORISATION_WINDOW_MILLIS = OUTBOUND_PAYMENT_IMPORT_AUTHORISATION_WINDOW_DAYS * MILLIS_PER_DAY

/** The statuses from which an import can still expire (before authorisation). */
const UNAUTHORISED: ReadonlyArray<OutboundPaymentImport["status"]> = ["created", "validating", "valid"]

/** What the daily work on imports reads and moves. */
export interface ImportDueWork {
  readonly imports: ImportStore
  readonly entries: EntryStore
  readonly customerAccounts: CustomerBankAccountRepository["Service"]
  readonly verifier: NameVerifier["Service"]
  readonly eachItem: DailyItems
  readonly transactor: Transactor["Service"]
}

/** Entry counts being added up. */
type Counting = { -readonly [K in keyof EntryCounts]: EntryCounts[K] }

type Recipient = { readonly problem: string } | { readonly problem: null; readonly account: CustomerBankAccount }

/** Why an entry's recipient cannot be paid, or the account when it can. */
const recipientOf = (deps: ImportDueWork, organisation: string, accountId: string): Effect.Effect<Recipient, StorageError> =>
  Effect.match(deps.customerAccounts.get(organisation, accountId), {
    onFailure: () => ({ problem: "must be a customer bank account of this organisation" }),
    onSuccess: (a) =>
      !a.resource.enabled
        ? { problem: "must be an enabled bank account" }
        : a.resource.currency !== "GBP"
        ? { problem: "must be a GBP bank account (outbound payments are GBP only)" }
        : { problem: null, account: a.resource }
  })

/** What checking one entry found: its recipient cannot be paid, or the result of confirmation of payee. */
type Verdict = { readonly _tag: "Invalid" } | { readonly _tag: "Verified"; readonly result: NameVerificationResult }

/** One entry checked and saved: its recipient must be payable, then its name is checked by confirmation of payee. */
const validateEntry = Effect.fnUntraced(function*(deps: ImportDueWork, organisation: string, entry: Versioned<OutboundPaymentImportEntry>) {
  const recipient = yield* recipientOf(deps, organisation, entry.resource.links.recipient_bank_account)
  if (recipient.problem !== null) {
    const validation_errors = { outbound_payment: { recipient_bank_account: [recipient.problem] } }
    yield* save(deps.entries, organisation, entry, { ...entry.resource, validation_errors })
    return { _tag: "Invalid" } satisfies Verdict
  }
  const verification = yield* deps.verifier.verify({
    account_holder_name: recipient.account.account_holder_name,
    account_number_ending: recipient.account.account_number_ending,
    country_code: recipient.account.country_code
  })
  yield* save(deps.entries, organisation, entry, { ...entry.resource, verification_result: verification.result })
  return { _tag: "Verified", result: verification.result } satisfies Verdict
})

/** Why an entry whose check failed outright is invalid: the import can be sent again. */
export const ENTRY_NOT_CHECKED = "could not be checked; send the entry again in a new import"

/**
 * One entry's check in a unit of its own (a savepoint inside the import's): if it fails outright
 * (its recipient cannot be read, the check of its name dies), what it wrote is rolled back, the
 * failure is logged, and the entry alone is recorded invalid; the other entries keep their
 * results. Interruption still stops the import.
 */
const checkEntry = Effect.fnUntraced(function*(deps: ImportDueWork, organisation: string, entry: Versioned<OutboundPaymentImportEntry>) {
  const exit = yield* Effect.exit(deps.transactor.transaction(validateEntry(deps, organisation, entry)))
  if (Exit.isSuccess(exit)) return exit.value
  if (Cause.hasInterruptsOnly(exit.cause)) return yield* Effect.interrupt
  yield* Effect.logError("import validation: an entry could not be checked; it is recorded invalid", Cause.pretty(exit.cause)).pipe(
    Effect.annotateLogs({ organisation, entry: entry.resource.id })
  )
  const validation_errors = { outbound_payment: { recipient_bank_account: [ENTRY_NOT_CHECKED] } }
  yield* save(deps.entries, organisation, entry, { ...entry.resource, validation_errors })
  return { _tag: "Invalid" } satisfies Verdict
})

/** Counts one entry's verdict. */
const tally = (counts: Counting, verdict: Verdict): void => {
  if (verdict._tag === "Invalid") {
    counts.invalid++
    return
  }
  counts.valid++
  counts.verified++
  counts[`verified_with_${verdict.result}`]++
}

/** Every entry of the import is checked, each on its own; any invalid entry makes the import invalid. */
const validateImport = Effect.fnUntraced(function*(deps: ImportDueWork, organisation: string, current: Versioned<OutboundPaymentImport>) {
  const counts = { ...zeroCounts(current.resource.entry_counts.total) }
  for (const entry of yield* entriesOf(deps.entries, organisation, current.resource.id)) {
    tally(counts, yield* checkEntry(deps, organisation, entry))
  }
  return yield* counts.invalid === 0
    ? moveImport(deps.imports, organisation, current, "validation_succeeded", {
      origin: "gocardless",
      cause: "outbound_payment_import_valid",
      description: "Every entry of the import is valid; it awaits authorisation in the dashboard."
    }, counts)
    : moveImport(deps.imports, organisation, current, "validation_failed", {
      origin: "gocardless",
      cause: "outbound_payment_import_invalid",
      description: `${counts.invalid} of ${counts.total} entries of the import are invalid.`
    }, counts)
})

/** Validation of every `validating` import completes, each import in its own unit of work. */
export const validatePending = Effect.fnUntraced(function*(deps: ImportDueWork, organisation: string) {
  const validating = yield* deps.imports.scan(organisation, { status: eq("validating") })
  const done: Array<OutboundPaymentImport> = []
  yield* deps.eachItem("import validation", organisation, validating, idOfVersioned, (v) =>
    Effect.gen(function*() {
      const current = yield* deps.imports.get(organisation, v.resource.id)
      done.push(yield* validateImport(deps, organisation, current))
    }))
  return done
})

/** Imports not authorised within the window are cancelled (`expired`). */
export const expireUnauthorised = Effect.fnUntraced(function*(deps: ImportDueWork, organisation: string, at: Timestamp) {
  const cutoff = timestampToMillis(at) - IMPORT_AUTHORISATION_WINDOW_MILLIS
  const unauthorised = yield* deps.imports.scan(organisation, { status: oneOf(UNAUTHORISED) })
  const late = unauthorised.filter((v) => timestampToMillis(v.resource.created_at) <= cutoff)
  const expired: Array<OutboundPaymentImport> = []
  yield* deps.eachItem("import expiry", organisation, late, idOfVersioned, (v) =>
    Effect.gen(function*() {
      const current = yield* deps.imports.get(organisation, v.resource.id)
      expired.push(yield* moveImport(deps.imports, organisation, current, "expire", {
        origin: "gocardless",
        cause: "outbound_payment_import_expired",
        description: `The import was not authorised within ${OUTBOUND_PAYMENT_IMPORT_AUTHORISATION_WINDOW_DAYS} days.`
      }))
    }))
  return expired
})
