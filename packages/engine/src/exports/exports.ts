import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, type NotFound, type OrganisationId, type StorageError, type ValidationFailed } from "@paykit/core"
import type { Page } from "../kernel/ports/list-query.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { ExportRepository } from "./repositories.ts"
import { type Export, ExportListParams } from "./domain/exports.ts"

const decodeList = decodeAtBoundary(ExportListParams, "exports")

/**
 * `GET /exports` and `GET /exports/{id}`: the organisation's exports, newest first. The real API
 * makes them only from the dashboard, which paykit does not have, so nothing writes one yet: the
 * reads serve what the store holds (README.md, docs/money-reads.md).
 */
export class Exports extends Context.Service<Exports, {
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<Export, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof ExportListParams.Encoded) => Effect.Effect<Page<Export>, ValidationFailed | StorageError>
}>()("@paykit/engine/Exports") {
  static readonly layer: Layer.Layer<Exports, never, ExportRepository> = Layer.effect(
    Exports,
    Effect.map(ExportRepository, (exportsStore) =>
      Exports.of({
        get: (o, id) => Effect.map(exportsStore.get(o, id), (v) => v.resource),
        list: (o, params) => Effect.flatMap(decodeList(params), (p) => exportsStore.list(o, toListQuery(p, {})))
      }))
  )
}
