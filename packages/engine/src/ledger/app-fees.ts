import { Context, Effect } from "effect"
import { type Amount, type Currency, type IdGenerator, InvalidState, type LocalDate, newId, now, type StorageError } from "@paykit/core"
import type { RepositoryOf } from "../kernel/repository-service.ts"
import type { appAttributions, appFeeEntries, PartnerApp } from "./domain/app-fees.ts"
import type { creditors } from "../creditors/domain/creditors.ts"
import { insertNew } from "../kernel/support.ts"

/**
 * The partner app making the current call, if any. The HTTP layer provides it from the access
 * token of the request (`Effect.provideService(CallingApp, app)`); the engine's own jobs and
 * direct callers without a partner leave it null. A payment or subscription created while it is
 * set charges its `app_fee` for that app.
 */
export const CallingApp = Context.Reference<PartnerApp | null>("@paykit/engine/CallingApp", { defaultValue: () => null })

type Attributions = RepositoryOf<typeof appAttributions>
type AppFeeLedger = RepositoryOf<typeof appFeeEntries>
type Creditors = RepositoryOf<typeof creditors>

/**
 * Records that `id` (a payment or subscription of `organisation`) was created by `app`. The app's
 * creditor must exist in the app's organisation: partner payouts are paid to it.
 */
export const recordAttribution = (
  repos: { readonly attributions: Attributions; readonly creditors: Creditors },
  organisation: string,
  id: string,
  app: PartnerApp
): Effect.Effect<void, InvalidState | StorageError> =>
  Effect.gen(function*() {
    yield* repos.creditors.get(app.organisation, app.creditor).pipe(
      Effect.mapError(() => new InvalidState({ reason: "partner_creditor_not_found", message: "The calling app's partner creditor does not exist" }))
    )
    yield* Effect.orDie(Effect.flatMap(now, (created_at) => repos.attributions.insert(organisation, { id, created_at, app })))
  })

/**
 * The partner app `id` was created by, or null. Read as one of many: most payments have no
 * attribution, and an absent one answers an empty list where a `get` built a `NotFound` (its stack
 * trace too) only to catch it.
 */
export const attributionOf = (attributions: Attributions, organisation: string, id: string): Effect.Effect<PartnerApp | null, StorageError> =>
  Effect.map(attributions.getMany(organisation, [id]), (found) => found[0]?.resource.app ?? null)

/**
 * Credits (`app_fee_collected`) or debits (`app_fee_refunded`) the partner of a merchant's
 * payment in the partner's own ledger, in the unit of work that settles the merchant's movement.
 * A zero fee, or a payment no app created, moves nothing.
 */
export const recordAppFee = (
  repos: { readonly attributions: Attributions; readonly appFees: AppFeeLedger },
  merchantOrganisation: string,
  payment: { readonly id: string; readonly currency: Currency; readonly links: { readonly mandate?: string } },
  kind: "app_fee_collected" | "app_fee_refunded",
  amount: Amount,
  day: LocalDate
): Effect.Effect<void, StorageError, IdGenerator> =>
  Effect.gen(function*() {
    if (amount === 0) return
    const app = yield* attributionOf(repos.attributions, merchantOrganisation, payment.id)
    if (app === null) return
    yield* insertNew(repos.appFees, app.organisation, {
      id: yield* newId("payout_item"),
      created_at: yield* now,
      creditor: app.creditor,
      currency: payment.currency,
      merchant_organisation: merchantOrganisation,
      settled_on: day,
      entry: { kind, currency: payment.currency, date: day, payment: payment.id, mandate: payment.links.mandate ?? payment.id, amount },
      payout: null
    })
  })
