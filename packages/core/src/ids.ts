import { Context, Effect, type Fiber, Layer, Schema } from "effect"
import { millisIn, type Timestamp, timestampFromMillis } from "./dates.ts"
import { NotFound } from "./errors.ts"
import { ID_BODY_LENGTH } from "./limits.ts"

/**
 * Resource identifiers: a prefix naming the resource, then 12 Crockford base32 characters.
 * The first 9 characters are the creation time in epoch milliseconds (45 bits, good until the
 * year 3084) and the last 3 a 15-bit sequence, so ids sort by creation time as strings and a
 * cursor on id is creation order.
 */
export const ID_PREFIXES = {
  access_token: "AT",
  /** paykit's own extension: a bank report received (a file a bank sent back), prefix `BR`. */
  bank_report: "BR",
  /** paykit's own extension: a day's mandate instructions and collections of a scheme and creditor, handed to the bank as one file. */
  bank_submission: "BS",
  bank_account_holder_verification: "BAHV",
  bank_authorisation: "BAU",
  block: "BLC",
  billing_request: "BRQ",
  billing_request_flow: "BRF",
  billing_request_template: "BRT",
  creditor: "CR",
  creditor_bank_account: "BA",
  customer: "CU",
  customer_bank_account: "BA",
  customer_billing_detail: "CBD",
  customer_notification: "PCN",
  event: "EV",
  export: "EX",
  idempotency_record: "IK",
  instalment_schedule: "IS",
  logo: "LO",
  mandate: "MD",
  mandate_import: "IM",
  mandate_import_entry: "MIE",
  mandate_pdf: "MPD",
  negative_balance_limit: "NBL",
  oauth_app: "APP",
  organisation: "OR",
  outbound_payment: "OUT",
  outbound_payment_import: "IM",
  outbound_payment_import_entry: "IE",
  payer_authorisation: "PA",
  payer_theme: "PTH",
  payment: "PM",
  payment_account: "BA",
  payment_account_transaction: "PAT",
  payout: "PO",
  payout_item: "POI",
  /** paykit's own extension: a caller's RSA public key, named by `Svc-Key-Id`. */
  public_key: "PK",
  redirect_flow: "RE",
  refund: "RF",
  scheme_identifier: "SU",
  subscription: "SB",
  verification_detail: "VD",
  webhook: "WB",
  webhook_endpoint: "WE"
} as const

export type IdResource = keyof typeof ID_PREFIXES
export type IdPrefix = (typeof ID_PREFIXES)[IdResource]

/** Crockford's base32: no I, L, O or U, and its characters sort in ASCII order. */
export const CROCKFORD_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

const TIME_CHARS = 9
const SEQUENCE_CHARS = ID_BODY_LENGTH - TIME_CHARS
const SEQUENCE_LIMIT = 32 ** SEQUENCE_CHARS // 32768
/** A fresh millisecond starts its sequence below half the range, leaving room to count up. */
const SEQUENCE_START_RANGE = SEQUENCE_LIMIT / 2
const TIME_LIMIT = 32 ** TIME_CHARS

const encode = (value: number, chars: number): string => {
  let out = ""
  let v = value
  for (let i = 0; i < chars; i++) {
    out = CROCKFORD_ALPHABET.charAt(v % 32) + out
    v = Math.floor(v / 32)
  }
  return out
}

const ID_BODY_PATTERN = new RegExp(`^[${CROCKFORD_ALPHABET}]{${ID_BODY_LENGTH}}$`)

export const isIdOf = (prefix: IdPrefix, s: string): boolean =>
  s.startsWith(prefix) && ID_BODY_PATTERN.test(s.slice(prefix.length))

/** The creation time encoded in an id made by this module. */
export const idTimestampMillis = (id: string, prefix: IdPrefix): number => {
  let ms = 0
  for (const c of id.slice(prefix.length, prefix.length + TIME_CHARS)) ms = ms * 32 + CROCKFORD_ALPHABET.indexOf(c)
  return ms
}

/**
 * The smallest id of `prefix` that can be made at `ms`: lets a `created_at` filter become a range
 * on the id column.
 */
export const lowestIdAt = (prefix: IdPrefix, ms: number): string => `${prefix}${encode(ms, TIME_CHARS)}${"0".repeat(SEQUENCE_CHARS)}`

/** A schema for ids of one resource: its prefix and 12 Crockford characters. */
export const ResourceId = (prefix: IdPrefix) =>
  Schema.String.check(
    Schema.makeFilter((s: string) => isIdOf(prefix, s), {
      message: `must be an identifier beginning ${prefix} followed by ${ID_BODY_LENGTH} characters`
    })
  )

/**
 * The one grammar of ids at the edge: the schema of an id of the resource named. Every link, id
 * filter and cursor of a request is decoded with it, so a malformed id (a NUL, a wrong prefix)
 * is a 422 naming the field and never reaches storage. Resources that share a prefix
 * (`creditor_bank_account`, `customer_bank_account` and `payment_account` are all `BA`) share
 * the grammar; storage tells them apart.
 */
export const IdOf = (resource: IdResource) => ResourceId(ID_PREFIXES[resource])

/** Whether `s` is a well-formed id of the resource named. */
export const isIdOfResource = (resource: IdResource, s: string): boolean => isIdOf(ID_PREFIXES[resource], s)

/**
 * The resource whose ids the API collection `collection` (`payments`, `creditor_bank_accounts`,
 * the first segment of `/payments/:id`) holds; undefined for collections of other ids
 * (`tax_rates`, whose ids are names such as `GB_VAT_1`).
 */
export const idResourceOfCollection = (collection: string): IdResource | undefined => {
  const singular = collection.endsWith("s") ? collection.slice(0, -1) : collection
  return Object.hasOwn(ID_PREFIXES, singular) ? (singular as IdResource) : undefined
}

/**
 * A path id (`/payments/:id`, `/payments/:id/actions/cancel`) checked against the grammar of its
 * collection's ids: a malformed one names no resource, so it is `NotFound` without a lookup.
 */
export const pathIdOf = (collection: string, id: string): Effect.Effect<string, NotFound> => {
  const resource = idResourceOfCollection(collection)
  return resource === undefined || isIdOfResource(resource, id) ? Effect.succeed(id) : Effect.fail(new NotFound({ resource: collection, id }))
}

/**
 * A pure, monotonic id factory. Within one millisecond the sequence counts up; when it runs out,
 * or the clock steps back, the time part is carried forward, so ids from one factory are strictly
 * increasing whatever the clock does. `random` returns a float in [0, 1).
 */
export const makeIdFactory = (random: () => number): ((prefix: IdPrefix, nowMillis: number) => string) => {
  let lastMs = -1
  let lastSeq = 0
  // The ids of one unit of work share their millisecond: its encoding is made once.
  let timeOf = { ms: -1, encoded: "" }
  return (prefix, nowMillis) => {
    let ms = Math.max(0, Math.floor(nowMillis))
    let seq: number
    if (ms > lastMs) {
      seq = Math.floor(random() * SEQUENCE_START_RANGE)
    } else {
      ms = lastMs
      seq = lastSeq + 1
      if (seq >= SEQUENCE_LIMIT) {
        ms = lastMs + 1
        seq = Math.floor(random() * SEQUENCE_START_RANGE)
      }
    }
    if (ms >= TIME_LIMIT) throw new RangeError("id time part overflow")
    lastMs = ms
    lastSeq = seq
    if (timeOf.ms !== ms) timeOf = { ms, encoded: encode(ms, TIME_CHARS) }
    return `${prefix}${timeOf.encoded}${encode(seq, SEQUENCE_CHARS)}`
  }
}

/** SplitMix32: a tiny, well-distributed seeded generator for deterministic tests and simulations. */
export const seededRandom = (seed: number): (() => number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x9e3779b9) >>> 0
    let z = state
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
    z = (z ^ (z >>> 16)) >>> 0
    return z / 4294967296
  }
}

// Random words are drawn 256 at a time: each draw from the system's generator is a system call
// (OpenSSL checks the process id on every one), and a busy server starts a new millisecond often.
const RANDOM_POOL_SIZE = 256
const randomPool = new Uint32Array(RANDOM_POOL_SIZE)
let randomPoolNext = RANDOM_POOL_SIZE

const cryptoRandom = (): number => {
  if (randomPoolNext === RANDOM_POOL_SIZE) {
    globalThis.crypto.getRandomValues(randomPool)
    randomPoolNext = 0
  }
  return (randomPool[randomPoolNext++] ?? 0) / 4294967296
}

/** The id port: every new resource id comes from here, timed by Effect's `Clock`. */
export class IdGenerator extends Context.Service<IdGenerator, {
  readonly make: (prefix: IdPrefix) => Effect.Effect<string>
  /**
   * The id `make` would give at the instant `nowMillis`, made at once: for a step that has read
   * the clock already (`withNewId`), so an id costs no step of its own.
   */
  readonly makeAt: (prefix: IdPrefix, nowMillis: number) => string
}>()("@paykit/core/IdGenerator") {
  /** Production: the sequence of a new millisecond starts at a random point. */
  static readonly layer: Layer.Layer<IdGenerator> = Layer.sync(IdGenerator, () => fromFactory(makeIdFactory(cryptoRandom)))

  /** Tests and simulations: the same seed and clock give the same ids. */
  static readonly layerSeeded = (seed: number): Layer.Layer<IdGenerator> =>
    Layer.sync(IdGenerator, () => fromFactory(makeIdFactory(seededRandom(seed))))
}

const fromFactory = (factory: (prefix: IdPrefix, nowMillis: number) => string): IdGenerator["Service"] =>
  IdGenerator.of({ make: (prefix) => Effect.withFiberSucceed((fiber) => factory(prefix, millisIn(fiber))), makeAt: factory })

/** Makes a new id of the resource named, e.g. `newId("subscription")`. */
export const newId = (resource: IdResource): Effect.Effect<string, never, IdGenerator> =>
  IdGenerator.use((g) => g.make(ID_PREFIXES[resource]))

/**
 * A new id of the resource named and the instant it is made, given to `f` with the fiber (for
 * what else `f` reads from it). One step, where `newId` then `now` take four, and one reading of
 * the clock for both, so the id's time is `created_at` to the millisecond. Every creation and
 * every event starts here.
 */
export const withNewId = <A, E, R>(
  resource: IdResource,
  f: (id: string, createdAt: Timestamp, fiber: Fiber.Fiber<unknown, unknown>) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R | IdGenerator> =>
  Effect.withFiber((fiber) => {
    const ms = millisIn(fiber)
    return f(generatorIn(fiber).makeAt(ID_PREFIXES[resource], ms), timestampFromMillis(ms), fiber)
  })

/**
 * `withNewId` for `count` ids of one resource at one reading of the clock, ascending (one
 * generator's ids increase): the events of one append share their `created_at`.
 */
export const withNewIds = <A, E, R>(
  resource: IdResource,
  count: number,
  f: (ids: ReadonlyArray<string>, createdAt: Timestamp, fiber: Fiber.Fiber<unknown, unknown>) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R | IdGenerator> =>
  Effect.withFiber((fiber) => {
    const ms = millisIn(fiber)
    const generator = generatorIn(fiber)
    const prefix = ID_PREFIXES[resource]
    // A loop, not `Array.from({ length })`: every history write draws ids, and that made an iterator and a closure each time.
    const ids: Array<string> = []
    for (let i = 0; i < count; i++) ids.push(generator.makeAt(prefix, ms))
    return f(ids, timestampFromMillis(ms), fiber)
  })

// The signatures of `withNewId` and `withNewIds` require the generator, so it is in the fiber's context.
const generatorIn = (fiber: Fiber.Fiber<unknown, unknown>): IdGenerator["Service"] => Context.getUnsafe(fiber.context, IdGenerator)
