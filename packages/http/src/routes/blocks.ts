import { Effect, Schema } from "effect"
import { HttpApiEndpoint } from "effect/http-api"
import { decodeRequestEffect } from "@paykit/core"
import { Block, BlockListParams, Blocks, REQUEST_BODIES } from "@paykit/engine"
import type { ApiHandler } from "../api-request.ts"
import { jsonResponse } from "../api-response.ts"
import { bodilessActionEndpoint, createEndpoint, declare, type EndpointDeclaration, getEndpoint, Idempotent, listEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"
import { page } from "../wire.ts"
import { unwrap } from "../write-handlers.ts"

/** Blocks of bank details, emails and references: one at a time, or every one of a reference's details. */

const services = Effect.gen(function*() {
  return { blocks: yield* Blocks }
})

const BODIES = REQUEST_BODIES
const BLOCKS = "blocks"
const decodeBlockByRef = decodeRequestEffect(BODIES.blocks.block_by_ref, BLOCKS)

/**
 * `POST /blocks/block_by_ref` (the client sends its attributes under `data`): the blocks of the
 * reference's details as a list, 201 when at least one is new, 200 when all were there already,
 * as the real API answers.
 */
const blockByRef = (s: Effect.Success<typeof services>): ApiHandler => (request, caller) =>
  Effect.flatMap(unwrap(request, BLOCKS, { allowData: true }), (raw) =>
    Effect.flatMap(decodeBlockByRef(raw), (command) =>
      Effect.map(s.blocks.blockByRef(caller.organisation, command), ({ blocks, created }) =>
        jsonResponse(created ? 201 : 200, { blocks, meta: { cursors: { before: null, after: null }, limit: blocks.length } }))))

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  createEndpoint(BLOCKS, Block, BODIES.blocks.create, (s) => s.blocks.create),
  getEndpoint(BLOCKS, Block, (s) => s.blocks.get),
  listEndpoint(BLOCKS, Block, BlockListParams, (s) => s.blocks.list),
  bodilessActionEndpoint("disable", BLOCKS, Block, (s) => s.blocks.disable),
  bodilessActionEndpoint("enable", BLOCKS, Block, (s) => s.blocks.enable),
  declare(
    BLOCKS,
    HttpApiEndpoint.post("block_by_ref", `/${BLOCKS}/block_by_ref`, {
      // `unwrap` takes the attributes under `blocks` or under `data` (the official client's).
      payload: Schema.Union([Schema.Struct({ data: BODIES.blocks.block_by_ref }), Schema.Struct({ [BLOCKS]: BODIES.blocks.block_by_ref })]),
      success: page(BLOCKS, Block)
    }).annotate(Idempotent, true),
    blockByRef
  )
]

export const blocksRoom = routeRoom([BLOCKS], services, declarations)
