import { Context, Effect, Layer } from "effect"
import { type Currency, decodeAtBoundary, type IdGenerator, newId, type NotFound, now, type OrganisationId, type StorageError, type StorageFailure, type ValidationFailed } from "@paykit/core"
import { DEFAULT_NEGATIVE_BALANCE_LIMIT } from "@paykit/money"
import { EventLog } from "../kernel/ports/event-log.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { NegativeBalanceLimitRepository } from "./repositories.ts"
import type { NegativeBalanceLimit } from "./domain/negative-balance-limits.ts"
import { toListQuery } from "../kernel/list-params.ts"
import {
  NEGATIVE_BALANCE_LIMITS_ROOT,
  NegativeBalanceLimitListParams,
  type NegativeBalanceLimitSetCommand,
  NegativeBalanceLimitSetRequest
} from "./domain/negative-balance-limits.ts"
import { API_CAUSE, emit, insertNew, captureUnitOfWork } from "../kernel/support.ts"
import { linkedCreditor } from "../creditors/creditor-link.ts"

const decodeSet = decodeAtBoundary(NegativeBalanceLimitSetRequest, NEGATIVE_BALANCE_LIMITS_ROOT)
const decodeList = decodeAtBoundary(NegativeBalanceLimitListParams, NEGATIVE_BALANCE_LIMITS_ROOT)

/**
 * Negative balance limits. Setting a limit records a new limit resource; the newest one of a
 * creditor and currency is the one in force (Payments reads it so), older ones stay as history.
 * Without any, the limit is @paykit/money's default, 0.
 */
export class NegativeBalanceLimits extends Context.Service<NegativeBalanceLimits, {
  readonly list: (organisation: OrganisationId, params: typeof NegativeBalanceLimitListParams.Encoded) => Effect.Effect<Page<NegativeBalanceLimit>, ValidationFailed | StorageError>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<NegativeBalanceLimit, NotFound | StorageError>
  /** An engine operation (the API has no create endpoint): records the limit now in force. */
  readonly set: (organisation: OrganisationId, command: typeof NegativeBalanceLimitSetRequest.Encoded) => Effect.Effect<NegativeBalanceLimit, ValidationFailed | StorageFailure>
  /** The limit in force for a creditor and currency, in minor units (0 when none was set). */
  readonly limitFor: (organisation: OrganisationId, creditor: string, currency: Currency) => Effect.Effect<number, StorageError>
}>()("@paykit/engine/NegativeBalanceLimits") {
  static readonly layer: Layer.Layer<
    NegativeBalanceLimits,
    never,
    NegativeBalanceLimitRepository | CreditorRepository | IdGenerator | EventLog | Transactor
  > = Layer.effect(
    NegativeBalanceLimits,
    Effect.gen(function*() {
      const limits = yield* NegativeBalanceLimitRepository
      const creditors = yield* CreditorRepository
      const run = yield* captureUnitOfWork

      const set = (organisation: string, req: NegativeBalanceLimitSetCommand) =>
        Effect.gen(function*() {
          yield* linkedCreditor(creditors, organisation, NEGATIVE_BALANCE_LIMITS_ROOT, req.links.creditor)
          const limit: NegativeBalanceLimit = {
            id: yield* newId("negative_balance_limit"),
            created_at: yield* now,
            balance_limit: req.balance_limit,
            currency: req.currency,
            links: { creditor: req.links.creditor, creator_user: req.links.creator_user ?? null }
          }
          yield* insertNew(limits, organisation, limit)
          yield* emit(organisation, {
            resource_type: "negative_balance_limits",
            action: "created",
            links: { negative_balance_limit: limit.id, creditor: limit.links.creditor },
            cause: API_CAUSE("negative_balance_limit_set", `The negative balance limit in ${limit.currency} was set to ${limit.balance_limit}.`)
          })
          return limit
        })

      return NegativeBalanceLimits.of({
        list: (o, params) =>
          Effect.flatMap(decodeList(params), (p) =>
            limits.list(o, toListQuery(p, {
              creditor: p.creditor === undefined ? undefined : eq(p.creditor),
              currency: p.currency === undefined ? undefined : eq(p.currency)
            }))),
        get: (o, id) => Effect.map(limits.get(o, id), (v) => v.resource),
        // The limit and its event are one unit of work: neither is kept without the other.
        set: (o, command) => Effect.flatMap(decodeSet(command), (c) => run(set(o, c))),
        limitFor: (o, creditor, currency) =>
          Effect.map(limits.scan(o, { creditor: eq(creditor), currency: eq(currency) }), (rows) =>
            rows[rows.length - 1]?.resource.balance_limit ?? DEFAULT_NEGATIVE_BALANCE_LIMIT)
      })
    })
  )
}
