import { Context, Effect, Layer } from "effect"
import type { IdGenerator, NotFound, OperationError, OrganisationId, StorageError, ValidationFailed } from "@paykit/core"
import { decodeAtBoundary } from "@paykit/core"
import { payoutMachine } from "@paykit/machines"
import { BankGateway } from "../kernel/ports/bank-gateway.ts"
import { EventLog } from "../kernel/ports/event-log.ts"
import { eq, oneOf, type Page } from "../kernel/ports/list-query.ts"
import type { Transactor } from "../kernel/ports/repository.ts"
import { pageWhere, toListQuery } from "../kernel/list-params.ts"
import { applyTransition, captureUnitOfWork, save } from "../kernel/support.ts"
import { captureDailyItems } from "../due-work/daily-items.ts"
import type { InstalmentScheduleCheckRepository, PaymentRepository } from "../payments/repositories.ts"
import type { CreditorBankAccountRepository, CreditorRepository } from "../creditors/repositories.ts"
import { type AppFeeLedgerRepository, type LedgerRepository } from "../ledger/repositories.ts"
import { type PayoutRepository, type PayoutStores, payoutStores } from "./repositories.ts"
import type { Payout } from "./domain/payouts.ts"
import { PayoutListParams, type PayoutUpdateCommand, PayoutUpdateRequest } from "./domain/requests.ts"
import { payoutLinks } from "./payout-sending.ts"
import { processPartnerPayoutDay, processPayoutDay } from "./daily-payouts.ts"
import type { PayoutHold } from "./domain/payout-holds.ts"
import { payoutHolds } from "./payout-holds.ts"

type Errors = OperationError

const decodeUpdate = decodeAtBoundary(PayoutUpdateRequest, "payouts")
const decodeList = decodeAtBoundary(PayoutListParams, "payouts")

/** `PUT /payouts/:id`: the metadata given replaces the stored metadata. */
const updatePayout = (stores: PayoutStores, organisation: string, id: string, command: PayoutUpdateCommand) =>
  Effect.gen(function*() {
    const current = yield* stores.payouts.get(organisation, id)
    const next: Payout = { ...current.resource, metadata: command.metadata }
    yield* save(stores.payouts, organisation, current, next)
    return next
  })

/** A bounced payout is sent again: pending once more (`retried`). */
const retryPayout = (stores: PayoutStores, organisation: string, id: string) =>
  Effect.gen(function*() {
    const current = yield* stores.payouts.get(organisation, id)
    return yield* applyTransition(stores.payouts, {
      organisation,
      machine: payoutMachine,
      current,
      event: "retry",
      context: { exchanged: current.resource.fx.fx_currency !== null, fx_rate_confirmed: false },
      cause: { origin: "api", cause: "payout_retried", description: "The payout was retried at your request." },
      links: payoutLinks(current.resource)
    })
  })

const listQueryOf = (params: PayoutListParams) =>
  toListQuery(params, {
    creditor: params.creditor === undefined ? undefined : eq(params.creditor),
    creditor_bank_account: params.creditor_bank_account === undefined ? undefined : eq(params.creditor_bank_account),
    currency: params.currency === undefined ? undefined : eq(params.currency),
    status: params.status === undefined ? undefined : oneOf([params.status]),
    reference: params.reference === undefined ? undefined : eq(params.reference),
    payout_type: params.payout_type === undefined ? undefined : eq(params.payout_type)
  })

/**
 * `GET /payouts`; with `metadata` (`metadata[key]=value`), the payouts whose metadata holds every
 * pair given, found by reading the filtered list and keeping those (`pageWhere`): no key serves
 * metadata, and payouts are few, one per creditor, currency and day.
 */
const listPayouts = (payouts: PayoutRepository["Service"], organisation: string, params: PayoutListParams) => {
  const query = listQueryOf(params)
  const metadata = params.metadata
  if (metadata === undefined) return payouts.list(organisation, query)
  const pairs = Object.entries(metadata)
  return pageWhere((window) => payouts.list(organisation, { ...query, ...window }), (p) => pairs.every(([key, value]) => p.metadata[key] === value), query)
}

export class Payouts extends Context.Service<Payouts, {
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<Payout, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof PayoutListParams.Encoded) => Effect.Effect<Page<Payout>, ValidationFailed | StorageError>
  /** PUT /payouts/:id: only `metadata` is accepted. */
  readonly update: (organisation: OrganisationId, id: string, command: typeof PayoutUpdateRequest.Encoded) => Effect.Effect<Payout, Errors>
  /** A bounced payout is sent again: pending once more, paid (or bounced) on the next bank day. */
  readonly retry: (organisation: OrganisationId, id: string) => Effect.Effect<Payout, Errors>
  /**
   * Why payouts are held now (docs/money.md, "Held payouts"): per creditor and currency with money
   * no payout has taken, the reason the daily run holds it and the amount waiting; one creditor's
   * (NotFound if it is not the organisation's) or, without `creditor`, every creditor's. Empty
   * when nothing is held.
   */
  readonly holds: (organisation: OrganisationId, creditor?: string) => Effect.Effect<ReadonlyArray<PayoutHold>, NotFound | StorageError>
  /**
   * The day's payouts, in this order: pending payouts made earlier are sent (an exchanged one
   * first has its rate confirmed, `fx_rate_confirmed`) and come back paid or bounced; then each
   * verified creditor's settled movements from earlier days are assembled by @paykit/money into
   * one payout per currency, and the payments in it are marked paid out.
   */
  readonly processDay: (organisation: OrganisationId) => Effect.Effect<void, StorageError>
  /**
   * The day's partner payouts (`payout_type: "partner"`), for an organisation that is a partner
   * app: its app fees credited (and debited, on reversals) on earlier days are assembled by
   * @paykit/money's `assemblePartnerPayout` into one payout per partner creditor and currency,
   * dated today. They are sent like merchant payouts, by the next `processDay`.
   */
  readonly processPartnerDay: (organisation: OrganisationId) => Effect.Effect<void, StorageError>
}>()("@paykit/engine/Payouts") {
  static readonly layer: Layer.Layer<
    Payouts,
    never,
    | PayoutRepository
    | InstalmentScheduleCheckRepository
    | LedgerRepository
    | AppFeeLedgerRepository
    | PaymentRepository
    | CreditorRepository
    | CreditorBankAccountRepository
    | BankGateway
    | IdGenerator
    | EventLog
    | Transactor
  > = Layer.effect(
    Payouts,
    Effect.gen(function*() {
      const stores = yield* payoutStores
      const ports = { bank: yield* BankGateway, log: yield* EventLog }
      const run = yield* captureUnitOfWork
      const eachItem = yield* captureDailyItems
      return Payouts.of({
        get: (o, id) => Effect.map(stores.payouts.get(o, id), (v) => v.resource),
        list: (o, params) => Effect.flatMap(decodeList(params), (p) => listPayouts(stores.payouts, o, p)),
        update: (o, id, command) => Effect.flatMap(decodeUpdate(command), (c) => run(updatePayout(stores, o, id, c))),
        retry: (o, id) => run(retryPayout(stores, o, id)),
        holds: (o, creditor) => payoutHolds(stores, o, creditor),
        processDay: (o) => processPayoutDay(stores, ports, eachItem, o),
        processPartnerDay: (o) => processPartnerPayoutDay(stores, eachItem, o)
      })
    })
  )
}
