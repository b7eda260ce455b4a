import { Context, Effect, Layer } from "effect"
import type { NotFound } from "@paykit/core"
import type { Page } from "../kernel/ports/list-query.ts"
import { toListQuery } from "../kernel/list-params.ts"
import { ExportRepository } from "./repositories.ts"
import type { Export, ExportListParams } from "./domain/exports.ts"

/**
 * `GET /exports` and `GET /exports/{id}`: the organisation's exports, newest first. The real API
 * makes them only from the dashboard, which paykit does not have, so nothing writes one yet: the
 * reads serve what the store holds (README.md, docs/money-reads.md).
 */
export class Exports extends Context.Service<Exports, {
  readonly get: (organisation: string, id: string) => Effect.Effect<Export, NotFound>
  readonly list: (organisation: string, params: ExportListParams) => Effect.Effect<Page<Export>>
}>()("@paykit/engine/Exports") {
  static readonly layer: Layer.Layer<Exports, never, ExportRepository> = Layer.effect(
    Exports,
    Effect.map(ExportRepository, (exportsStore) =>
      Exports.of({
        get: (o, id) => Effect.map(exportsStore.get(o, id), (v) => v.resource),
        list: (o, params) => exportsStore.list(o, toListQuery(params, {}))
      }))
  )
}
