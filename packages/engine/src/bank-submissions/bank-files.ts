import { createHash } from "node:crypto"
import { Effect, Option, Stream } from "effect"
import { now, type StorageError } from "@paykit/core"
import { eq } from "../kernel/ports/list-query.ts"
import type { BankDetailsVault } from "../customers/bank-details-vault.ts"
import type { BankFileChunk } from "./domain/bank-items.ts"
import type { BankFileChunkRepository } from "./repositories.ts"

/**
 * Bank files at rest: a submission's file as written, a report as received. Files can be large (a
 * big creditor's day), so they are written and read a chunk at a time, in bounded memory, and each
 * chunk is sealed like the payers' bank details it carries.
 */

/** The most bytes a stored chunk holds. */
export const BANK_FILE_CHUNK_BYTES = 64 * 1024
/** Chunks read per statement when a file is read back. */
const CHUNKS_PER_READ = 8
/** Digits of a chunk's sequence number in its id: room for files of 64 GiB. */
const SEQUENCE_DIGITS = 6

export interface FileDeps {
  readonly chunks: BankFileChunkRepository["Service"]
  readonly vault: BankDetailsVault["Service"]
}

const chunkId = (file: string, seq: number): string => `${file}/${String(seq).padStart(SEQUENCE_DIGITS, "0")}`
const contextOf = (file: string, seq: number): string => `bank_file/${chunkId(file, seq)}`

/** What a complete file is: its size and its SHA-256 in hex. */
export interface FileDigest {
  readonly size: number
  readonly sha256: string
}

/**
 * The chunk `id` kept with `bytes`: a chunk already there (the same file written again after an
 * interruption) is left as it is when it holds those bytes, and replaced when it does not (a write
 * cut off by bytes that changed under it), so writing a file again completes it, and correctly.
 */
const keepChunk = (deps: FileDeps, organisation: string, chunk: BankFileChunk, seq: number, bytes: Uint8Array) =>
  Effect.catchTag(Effect.asVoid(deps.chunks.insert(organisation, chunk)), "DuplicateId", () =>
    Effect.gen(function*() {
      const there = yield* Effect.orDie(deps.chunks.get(organisation, chunk.id))
      const held = deps.vault.openBytes(organisation, contextOf(chunk.file, seq), Buffer.from(there.resource.sealed, "base64"))
      if (held !== undefined && Buffer.from(held).equals(bytes)) return
      yield* Effect.orDie(deps.chunks.update(organisation, chunk, there.version))
    }))

/**
 * Writes the file `file` of `organisation` as its text or bytes come, a sealed chunk of
 * `BANK_FILE_CHUNK_BYTES` at a time, each chunk its own write; a chunk that exists already is
 * kept or replaced (`keepChunk`), so writing a file again completes it.
 */
export const fileWriter = (deps: FileDeps, organisation: string, file: string) => {
  const encoder = new TextEncoder()
  const hash = createHash("sha256")
  let pending: Array<Uint8Array> = []
  let pendingBytes = 0
  let size = 0
  let seq = 0
  const store = (bytes: Uint8Array) =>
    Effect.flatMap(now, (created_at) => {
      const id = chunkId(file, seq)
      const sealed = Buffer.from(deps.vault.sealBytes(organisation, contextOf(file, seq), bytes)).toString("base64")
      seq += 1
      return keepChunk(deps, organisation, { id, created_at, file, sealed }, seq - 1, bytes)
    })
  /** The pending bytes cut into full chunks (all of them when `last`), each stored. */
  const flush = (last: boolean): Effect.Effect<void, StorageError> =>
    Effect.suspend(() => {
      if (pendingBytes < BANK_FILE_CHUNK_BYTES && !(last && pendingBytes > 0)) return Effect.void
      const all = Buffer.concat(pending, pendingBytes)
      const whole = last ? all.length : all.length - (all.length % BANK_FILE_CHUNK_BYTES)
      const rest = all.subarray(whole)
      pending = rest.length === 0 ? [] : [rest]
      pendingBytes = rest.length
      const cuts = Array.from({ length: Math.ceil(whole / BANK_FILE_CHUNK_BYTES) }, (_, i) => all.subarray(i * BANK_FILE_CHUNK_BYTES, Math.min(whole, (i + 1) * BANK_FILE_CHUNK_BYTES)))
      return Effect.forEach(cuts, store, { discard: true })
    })
  return {
    write: (part: string | Uint8Array): Effect.Effect<void, StorageError> =>
      Effect.suspend(() => {
        const bytes = typeof part === "string" ? encoder.encode(part) : part
        if (bytes.length === 0) return Effect.void
        hash.update(bytes)
        size += bytes.length
        pending.push(bytes)
        pendingBytes += bytes.length
        return flush(false)
      }),
    end: (): Effect.Effect<FileDigest, StorageError> => Effect.as(flush(true), { size, sha256: hash.digest("hex") })
  }
}
export type FileWriter = ReturnType<typeof fileWriter>

/** The bytes of `file`, as written, a chunk at a time; a chunk that does not open (another key, altered) is a defect. */
export const fileBytes = (deps: FileDeps, organisation: string, file: string): Stream.Stream<Uint8Array, StorageError> =>
  Stream.paginate<string | undefined, Uint8Array, StorageError>(undefined, (after) =>
    Effect.gen(function*() {
      const page = after === undefined ? { limit: CHUNKS_PER_READ } : { after, limit: CHUNKS_PER_READ }
      const rows = yield* deps.chunks.scan(organisation, { file: eq(file) }, page)
      const opened: Array<Uint8Array> = []
      for (const row of rows) {
        const seq = Number(row.resource.id.slice(file.length + 1))
        const plain = deps.vault.openBytes(organisation, contextOf(file, seq), Buffer.from(row.resource.sealed, "base64"))
        if (plain === undefined) return yield* Effect.die(new Error(`bank file ${file}: chunk ${seq} does not open (another key, or altered)`))
        opened.push(plain)
      }
      const last = rows[rows.length - 1]
      return [opened, rows.length < CHUNKS_PER_READ || last === undefined ? Option.none() : Option.some(last.resource.id)] as const
    }))
