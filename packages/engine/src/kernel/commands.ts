import type { Effect, Schema } from "effect"
import { decodeInputEffect, type ValidationFailed } from "@paykit/core"

/**
 * A typed command from unchecked data, with the command's Schema, so field errors carry JSON pointers
 * under `root` (the API resource key). Operations decode their plain commands themselves
 * (`decodeAtBoundary`): this is for a caller that wants the typed command first, to keep it.
 */
export const decodeCommand = <S extends Schema.Decoder<unknown>>(schema: S, root: string): (input: unknown) => Effect.Effect<S["Type"], ValidationFailed> =>
  decodeInputEffect(schema, root)
