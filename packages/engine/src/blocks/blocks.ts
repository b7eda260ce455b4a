import { Context, Effect, Layer } from "effect"
import { decodeAtBoundary, type IdGenerator, invalidField, newId, type NotFound, now, type OperationError, type OrganisationId, type StorageError, type ValidationFailed } from "@paykit/core"
import { CustomerBankAccountRepository, CustomerRepository } from "../customers/repositories.ts"
import { MandateRepository } from "../mandates/repositories.ts"
import { toListQuery } from "../kernel/list-params.ts"
import type { EventLog } from "../kernel/ports/event-log.ts"
import { eq, type Page } from "../kernel/ports/list-query.ts"
import type { Transactor } from "../kernel/ports/repository.ts"
import { captureUnitOfWork, insertNew, save } from "../kernel/support.ts"
import { matchOf } from "./block-screen.ts"
import { type Block, BlockByRefRequest, BlockCreateRequest, BlockListParams, BLOCKS_ROOT, type BlockType } from "./domain/blocks.ts"
import { BankAccountFingerprintRepository, BlockMatchRepository, BlockRepository } from "./repositories.ts"

const decodeCreate = decodeAtBoundary(BlockCreateRequest, BLOCKS_ROOT)
const decodeByRef = decodeAtBoundary(BlockByRefRequest, BLOCKS_ROOT)
const decodeList = decodeAtBoundary(BlockListParams, BLOCKS_ROOT)

interface BlockDeps {
  readonly blocks: BlockRepository["Service"]
  readonly matches: BlockMatchRepository["Service"]
  readonly fingerprints: BankAccountFingerprintRepository["Service"]
  readonly customers: CustomerRepository["Service"]
  readonly accounts: CustomerBankAccountRepository["Service"]
  readonly mandates: MandateRepository["Service"]
}

/** A block's fields but its identity and times: what a creation asks for. */
interface BlockSpec {
  readonly block_type: BlockType
  readonly resource_reference: string
  readonly reason_type: Block["reason_type"]
  readonly reason_description: string | null
  readonly active: boolean
}

/** What a block matches: emails and domains themselves, a bank account's kept fingerprint or its bank's name. */
const matchFor = Effect.fnUntraced(function*(deps: BlockDeps, organisation: string, spec: BlockSpec) {
  if (spec.block_type === "email" || spec.block_type === "email_domain") return matchOf(spec.block_type, spec.resource_reference)
  const kept = yield* deps.fingerprints.get(organisation, spec.resource_reference).pipe(
    Effect.mapError(() => invalidField(BLOCKS_ROOT, ["resource_reference"], "must be a customer bank account of this organisation"))
  )
  if (spec.block_type === "bank_account") return matchOf("bank_account", kept.resource.fingerprint)
  if (kept.resource.bank_name === null) {
    return yield* invalidField(BLOCKS_ROOT, ["resource_reference"], "is an account whose bank could not be identified, so its name cannot be blocked")
  }
  return matchOf("bank_name", kept.resource.bank_name)
})

/** `active` and `updated_at` on the block and its match together (no event: the real API has no block events). */
const setActive = Effect.fnUntraced(function*(deps: BlockDeps, organisation: string, id: string, active: boolean) {
  const current = yield* deps.blocks.get(organisation, id)
  if (current.resource.active === active) return current.resource
  const next: Block = { ...current.resource, active, updated_at: yield* now }
  yield* save(deps.blocks, organisation, current, next)
  const match = yield* Effect.orDie(deps.matches.get(organisation, id))
  yield* save(deps.matches, organisation, match, { ...match.resource, active })
  return next
})

/**
 * Stores the block, or answers the one that already matches the same details (a second block on
 * them would change nothing); `created` says which. A disabled one asked for again is enabled, as
 * `enable` does, so the details end up blocked as asked.
 */
const storeBlock = Effect.fnUntraced(function*(deps: BlockDeps, organisation: string, spec: BlockSpec) {
  const match = yield* matchFor(deps, organisation, spec)
  // The match names the block type, so one found is a block of this type on these details.
  const existing = (yield* deps.matches.scan(organisation, { match: eq(match) }))[0]
  if (existing !== undefined) {
    const block = spec.active && !existing.resource.active
      ? yield* setActive(deps, organisation, existing.resource.id, true)
      : (yield* Effect.orDie(deps.blocks.get(organisation, existing.resource.id))).resource
    return { block, created: false }
  }
  const at = yield* now
  const block: Block = { id: yield* newId("block"), created_at: at, updated_at: at, ...spec }
  yield* insertNew(deps.blocks, organisation, block)
  yield* insertNew(deps.matches, organisation, { id: block.id, created_at: at, match, active: block.active })
  return { block, created: true }
})

const specOf = (req: Omit<BlockCreateRequest, "block_type" | "resource_reference">, block_type: BlockType, resource_reference: string): BlockSpec => ({
  block_type,
  resource_reference,
  reason_type: req.reason_type,
  reason_description: req.reason_description ?? null,
  active: req.active ?? true
})

/** The payer details a reference names: a customer's email and bank accounts, or a mandate's customer's email and its account. */
const detailsOf = Effect.fnUntraced(function*(deps: BlockDeps, organisation: string, req: BlockByRefRequest) {
  const notFound = () => invalidField(BLOCKS_ROOT, ["reference_value"], `must be a ${req.reference_type} of this organisation`)
  if (req.reference_type === "customer") {
    const customer = yield* Effect.mapError(deps.customers.get(organisation, req.reference_value), notFound)
    const accounts = yield* deps.accounts.scan(organisation, { customer: eq(customer.resource.id) })
    return { email: customer.resource.email, accounts: accounts.map((a) => a.resource.id) }
  }
  const mandate = yield* Effect.mapError(deps.mandates.get(organisation, req.reference_value), notFound)
  const customer = yield* Effect.orDie(deps.customers.get(organisation, mandate.resource.links.customer))
  return { email: customer.resource.email, accounts: [mandate.resource.links.customer_bank_account] }
})

/** `block_by_ref`: a block on the email and one on each bank account (those whose details were kept). */
const blockByRef = Effect.fnUntraced(function*(deps: BlockDeps, organisation: string, req: BlockByRefRequest) {
  const details = yield* detailsOf(deps, organisation, req)
  const specs: Array<BlockSpec> = []
  if (details.email !== null) specs.push(specOf(req, "email", details.email))
  for (const account of details.accounts) {
    if ((yield* Effect.option(deps.fingerprints.get(organisation, account)))._tag === "Some") specs.push(specOf(req, "bank_account", account))
  }
  const stored: Array<{ readonly block: Block; readonly created: boolean }> = []
  for (const spec of specs) stored.push(yield* storeBlock(deps, organisation, spec))
  return { blocks: stored.map((s) => s.block), created: stored.some((s) => s.created) }
})

export class Blocks extends Context.Service<Blocks, {
  readonly create: (organisation: OrganisationId, command: typeof BlockCreateRequest.Encoded) => Effect.Effect<Block, OperationError>
  readonly get: (organisation: OrganisationId, id: string) => Effect.Effect<Block, NotFound | StorageError>
  readonly list: (organisation: OrganisationId, params: typeof BlockListParams.Encoded) => Effect.Effect<Page<Block>, ValidationFailed | StorageError>
  readonly disable: (organisation: OrganisationId, id: string) => Effect.Effect<Block, OperationError>
  readonly enable: (organisation: OrganisationId, id: string) => Effect.Effect<Block, OperationError>
  /** The blocks made (or already there) for the reference's details; `created` when at least one is new. */
  readonly blockByRef: (organisation: OrganisationId, command: typeof BlockByRefRequest.Encoded) => Effect.Effect<{ readonly blocks: ReadonlyArray<Block>; readonly created: boolean }, OperationError>
}>()("@paykit/engine/Blocks") {
  static readonly layer: Layer.Layer<
    Blocks,
    never,
    BlockRepository | BlockMatchRepository | BankAccountFingerprintRepository | CustomerRepository | CustomerBankAccountRepository | MandateRepository | IdGenerator | EventLog | Transactor
  > = Layer.effect(
    Blocks,
    Effect.gen(function*() {
      const deps: BlockDeps = {
        blocks: yield* BlockRepository,
        matches: yield* BlockMatchRepository,
        fingerprints: yield* BankAccountFingerprintRepository,
        customers: yield* CustomerRepository,
        accounts: yield* CustomerBankAccountRepository,
        mandates: yield* MandateRepository
      }
      const run = yield* captureUnitOfWork
      return Blocks.of({
        create: (o, command) =>
          Effect.flatMap(decodeCreate(command), (c) => run(Effect.map(storeBlock(deps, o, specOf(c, c.block_type, c.resource_reference)), (s) => s.block))),
        get: (o, id) => Effect.map(deps.blocks.get(o, id), (v) => v.resource),
        list: (o, plain) =>
          Effect.flatMap(decodeList(plain), (params) =>
            deps.blocks.list(o, toListQuery(params, {
              block_type: params.block_type === undefined ? undefined : eq(params.block_type),
              reason_type: params.reason_type === undefined ? undefined : eq(params.reason_type)
            }))),
        disable: (o, id) => run(setActive(deps, o, id, false)),
        enable: (o, id) => run(setActive(deps, o, id, true)),
        blockByRef: (o, command) => Effect.flatMap(decodeByRef(command), (c) => run(blockByRef(deps, o, c)))
      })
    })
  )
}
