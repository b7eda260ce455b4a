import { Effect, Option, Schema } from "effect"
import { type BankAccount, type Collection, itemSortKey, type MandateInstruction, type SubmissionItem } from "@paykit/bank-files"
import { addDays, type MandateScheme, type LocalDate, localDateOfMillis, now, timestampToMillis, type Timestamp, today, type StorageError } from "@paykit/core"
import type { Versioned } from "../kernel/ports/repository.ts"
import { insertNew, save } from "../kernel/support.ts"
import type { BankDetailsVault, FullBankDetails } from "../customers/bank-details-vault.ts"
import type { CustomerBankAccountRepository } from "../customers/repositories.ts"
import { type BankBatch, batchIdOf, type BankItem } from "./domain/bank-items.ts"
import { SnapshotJson } from "./domain/snapshots.ts"
import type { BankBatchRepository, BankItemRepository } from "./repositories.ts"

/**
 * Queueing an item for the bank: the daily run submits a mandate or a payment through its machine
 * and, in the same unit of work, queues the instruction or collection the bank is to receive. The
 * item is snapshotted as the file will state it (the payer's details from the vault) and counted
 * in the batch of its creditor, scheme and day, which the day's `bank submissions` job closes
 * into a submission (`submission-day.ts`).
 */

export interface QueueDeps {
  readonly items: BankItemRepository["Service"]
  readonly batches: BankBatchRepository["Service"]
  readonly accounts: CustomerBankAccountRepository["Service"]
  readonly vault: BankDetailsVault["Service"]
}

/** A mandate as its instruction and its collections name it (the mandates' room maps its resource to this). */
export interface MandateFacts {
  readonly id: string
  readonly reference: string | null
  readonly scheme: MandateScheme
  readonly created_at: Timestamp
  readonly authorisation_source: "web" | "telephone" | "paper" | null
  readonly creditor: string
  readonly customer_bank_account: string
}

/** A payment as its collection names it. */
export interface CollectionFacts {
  readonly id: string
  readonly amount: number
  readonly currency: string
  readonly charge_date: LocalDate
  readonly remittance: string | null
  /** The mandate goes to the bank with this collection (it is not active yet): SEPA's `FRST`, Bacs's `01`. */
  readonly first: boolean
}

/** The payer's account as a file names it: each scheme's field from the details as they were given. */
export const bankAccountOf = (details: FullBankDetails): BankAccount => {
  const account: { -readonly [K in keyof BankAccount]: BankAccount[K] } = { account_holder_name: details.account_holder_name }
  if (details.iban !== null) account.iban = details.iban
  if (details.account_number !== null) account.account_number = details.account_number
  if (details.account_type === "checking" || details.account_type === "savings") account.account_type = details.account_type
  if (details.country_code === "GB" && details.branch_code !== null) account.sort_code = details.branch_code
  else if (details.country_code === "US" && details.bank_code !== null) account.routing_number = details.bank_code
  else {
    if (details.bank_code !== null) account.bank_code = details.bank_code
    if (details.branch_code !== null) account.branch_code = details.branch_code
  }
  return account
}

/**
 * The payer's account for the file: the details the vault keeps, or, where none are kept (an
 * account made before the vault, or erased with its customer), its holder's name alone.
 */
const debtorOf = (deps: QueueDeps, organisation: string, account: string) =>
  Effect.flatMap(deps.vault.open(organisation, account), (details) =>
    details !== undefined
      ? Effect.succeed(bankAccountOf(details))
      : Effect.map(Effect.orDie(deps.accounts.get(organisation, account)), ({ resource }): BankAccount => ({ account_holder_name: resource.account_holder_name })))

const signedOn = (mandate: MandateFacts): LocalDate => localDateOfMillis(timestampToMillis(mandate.created_at))
const referenceOf = (mandate: MandateFacts): string => mandate.reference ?? mandate.id
const sourceOf = (mandate: MandateFacts): MandateInstruction["authorisation_source"] => mandate.authorisation_source ?? "web"

/** The batch of `creditor` and `scheme` still open for `day`, or the next day's once that one is closed. */
const openBatch = (deps: QueueDeps, organisation: string, day: LocalDate, creditor: string, scheme: MandateScheme, created_at: Timestamp): Effect.Effect<Versioned<BankBatch>, StorageError> =>
  Effect.flatMap(Effect.option(deps.batches.get(organisation, batchIdOf(day, creditor, scheme))), (found) => {
    if (Option.isNone(found)) {
      return insertNew(deps.batches, organisation, {
        id: batchIdOf(day, creditor, scheme), created_at, day, creditor, scheme,
        mandate_count: 0, collection_count: 0, total_amount: 0, groups: [], closed: false, submission: null
      })
    }
    if (!found.value.resource.closed) return Effect.succeed(found.value)
    return openBatch(deps, organisation, addDays(day, 1), creditor, scheme, created_at)
  })

const encoder = new TextEncoder()

/** The context an item's snapshot is sealed under. */
export const itemContextOf = (subject: string, attempt: number): string => `bank_item/${subject}/${attempt}`

/** The id-less part of an item's sort key: the items of one group are written in id order. */
const groupOf = (item: SubmissionItem): string => {
  const key = itemSortKey(item)
  return key.slice(0, key.lastIndexOf(":"))
}

/** Queues `item` (about `subject`, on `mandate`) in the open batch of its creditor and scheme. */
const queue = (deps: QueueDeps, organisation: string, mandate: MandateFacts, subject: string, item: SubmissionItem) =>
  Effect.gen(function*() {
    const created_at = yield* now
    const batch = yield* openBatch(deps, organisation, yield* today(), mandate.creditor, mandate.scheme, created_at)
    const before = yield* Effect.option(deps.items.get(organisation, subject))
    const attempt = Option.isSome(before) ? before.value.resource.attempt + 1 : 0
    const amount = item.kind === "collection" ? item.amount : 0
    const sealed = Buffer.from(deps.vault.sealBytes(organisation, itemContextOf(subject, attempt), encoder.encode(Schema.encodeSync(SnapshotJson)(item)))).toString("base64")
    const record: BankItem = {
      id: subject,
      created_at,
      batch: batch.resource.id,
      group: groupOf(item),
      kind: item.kind,
      mandate: mandate.id,
      amount,
      charge_date: item.kind === "collection" ? item.charge_date : null,
      attempt,
      sealed
    }
    // Queued again into the batch it is in already: it replaces itself there, counted once.
    const replaced = Option.isSome(before) && before.value.resource.batch === batch.resource.id ? before.value.resource : undefined
    if (Option.isSome(before)) yield* Effect.orDie(save(deps.items, organisation, before.value, record))
    else yield* insertNew(deps.items, organisation, record)
    const b = batch.resource
    const added = replaced === undefined ? 1 : 0
    yield* Effect.orDie(save(deps.batches, organisation, batch, {
      ...b,
      mandate_count: b.mandate_count + (item.kind === "mandate" ? added : 0),
      collection_count: b.collection_count + (item.kind === "collection" ? added : 0),
      total_amount: b.total_amount + amount - (replaced?.amount ?? 0),
      groups: b.groups.includes(record.group) ? b.groups : [...b.groups, record.group]
    }))
  })

/** Queues a mandate's setup instruction, as the daily run submits the mandate. */
export const queueMandateSetup = (deps: QueueDeps, organisation: string, mandate: MandateFacts) =>
  Effect.flatMap(debtorOf(deps, organisation, mandate.customer_bank_account), (debtor) =>
    queue(deps, organisation, mandate, mandate.id, {
      kind: "mandate",
      action: "setup",
      mandate: mandate.id,
      mandate_reference: referenceOf(mandate),
      signed_on: signedOn(mandate),
      debtor,
      authorisation_source: sourceOf(mandate)
    }))

/** Queues a payment's collection, as the daily run submits the payment. */
export const queueCollection = (deps: QueueDeps, organisation: string, mandate: MandateFacts, payment: CollectionFacts) =>
  Effect.gen(function*() {
    const debtor = yield* debtorOf(deps, organisation, mandate.customer_bank_account)
    const earlier = yield* Effect.option(deps.items.get(organisation, payment.id))
    const item: Collection = {
      kind: "collection",
      payment: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      charge_date: payment.charge_date,
      // A payment retried after it failed goes again as a re-presentation (Bacs `18`).
      sequence: Option.isSome(earlier) ? "represented" : payment.first ? "first" : "recurring",
      mandate: mandate.id,
      mandate_reference: referenceOf(mandate),
      mandate_signed_on: signedOn(mandate),
      authorisation_source: sourceOf(mandate),
      debtor,
      remittance: payment.remittance
    }
    yield* queue(deps, organisation, mandate, payment.id, item)
  })

/** Reads ahead what queueing the collections of `payments` on `mandates` reads: their items and the payers' details. */
export const queueReadAhead = (deps: QueueDeps, organisation: string, subjects: ReadonlyArray<string>, accounts: ReadonlyArray<string>) =>
  Effect.andThen(deps.items.getMany(organisation, subjects), deps.vault.readAhead(organisation, [...new Set(accounts)]))
