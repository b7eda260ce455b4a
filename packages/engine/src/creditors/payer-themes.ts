import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, type IdGenerator, InvalidState, newId, type NotFound, now, type OrganisationId, type StorageError, type ValidationFailed } from "@paykit/core"
import { PAYER_THEMES } from "@paykit/validation"
import { eq } from "../kernel/ports/list-query.ts"
import { Transactor } from "../kernel/ports/repository.ts"
import { CreditorRepository, PayerThemeRepository } from "./repositories.ts"
import { type PayerTheme, type PayerThemeCreateCommand, PayerThemeCreateRequest } from "./domain/payer-themes.ts"
import { resolveCreditor } from "./creditor-link.ts"
import { captureIdGenerator, save } from "../kernel/support.ts"

const decodeUpsert = decodeAtBoundary(PayerThemeCreateRequest, PAYER_THEMES)

/**
 * Payer themes (`POST /branding/payer_themes`): one per creditor. `upsert` creates the creditor's
 * theme, or, when it has one, updates it: the colours given replace the stored ones and those not
 * given stay. `links.creditor` may be left out (or null) when the organisation has exactly one
 * creditor. The API has no read endpoint for themes and records no events for them; `get` and
 * `forCreditor` are engine operations for the pages that would use them.
 */
export class PayerThemes extends Context.Service<PayerThemes, {
  /** A concurrent upsert of the same theme that wins the race makes this one a 409 `conflict`. */
  readonly upsert: (organisation: OrganisationId, command: typeof PayerThemeCreateRequest.Encoded) => Effect.Effect<PayerTheme, ValidationFailed | InvalidState | StorageError>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<PayerTheme, NotFound | StorageError>
  /** The creditor's theme, or null when it has none. */
  readonly forCreditor: (organisation: OrganisationId, creditor: string) => Effect.Effect<PayerTheme | null, StorageError>
}>()("@paykit/engine/PayerThemes") {
  static readonly layer: Layer.Layer<PayerThemes, never, PayerThemeRepository | CreditorRepository | Transactor | IdGenerator> =
    Layer.effect(
      PayerThemes,
      Effect.gen(function*() {
        const themes = yield* PayerThemeRepository
        const creditors = yield* CreditorRepository
        const transactor = yield* Transactor
        const provideIds = yield* captureIdGenerator

        const existing = (organisation: string, creditor: string) =>
          Effect.map(themes.scan(organisation, { creditor: eq(creditor) }), (rows) => rows[0])

        const upsert = (organisation: string, req: PayerThemeCreateCommand) =>
          Effect.gen(function*() {
            const creditor = yield* resolveCreditor(creditors, organisation, PAYER_THEMES, req.links?.creditor ?? undefined)
            const current = yield* existing(organisation, creditor.resource.id)
            const base: PayerTheme = current?.resource ?? {
              id: yield* newId("payer_theme"),
              created_at: yield* now,
              header_background_colour: null,
              link_text_colour: null,
              button_background_colour: null,
              content_box_border_colour: null,
              links: { creditor: creditor.resource.id }
            }
            const next: PayerTheme = {
              ...base,
              header_background_colour: req.header_background_colour ?? base.header_background_colour,
              link_text_colour: req.link_text_colour ?? base.link_text_colour,
              button_background_colour: req.button_background_colour ?? base.button_background_colour,
              content_box_border_colour: req.content_box_border_colour ?? base.content_box_border_colour
            }
            if (current === undefined) {
              // A store that holds one theme per creditor (SQL: a unique index) refuses the second of
              // two concurrent first upserts; that request lost a race, as with `save`.
              return yield* themes.insert(organisation, next).pipe(
                Effect.map((stored) => stored.resource),
                Effect.catchTag("DuplicateId", () =>
                  Effect.fail(new InvalidState({ reason: "conflict", message: "The creditor's payer theme was created by another request at the same time" })))
              )
            }
            return (yield* save(themes, organisation, current, next)).resource
          })

        return PayerThemes.of({
          // One unit of work, so the check for an existing theme and the write are not split by another upsert.
          upsert: (o, command) => Effect.flatMap(decodeUpsert(command), (c) => transactor.transaction(provideIds(upsert(o, c)))),
          get: (o, id) => Effect.map(themes.get(o, id), (v) => v.resource),
          forCreditor: (o, creditor) => Effect.map(existing(o, creditor), (row) => row?.resource ?? null)
        })
      })
    )
}
