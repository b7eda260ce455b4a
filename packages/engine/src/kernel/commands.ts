import type { Effect, Schema } from "effect"
import { decodeInputEffect, type ValidationFailed } from "@paykit/core"

/**
 * The edge of a typed use case. Use cases take typed commands only; whoever holds unchecked data (the
 * HTTP layer, an embedder reading its own files, a test feeding a bad body) decodes it here first,
 * with the command's Schema, so field errors carry JSON pointers under `root` (the API resource key).
 */
export const decodeCommand = <S extends Schema.Decoder<unknown>>(schema: S, root: string): (input: unknown) => Effect.Effect<S["Type"], ValidationFailed> =>
  decodeInputEffect(schema, root)
