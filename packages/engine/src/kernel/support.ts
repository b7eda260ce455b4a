import { Context, Effect, Result, type Schema, SchemaAST } from "effect"
import { IdGenerator, InvalidState, type Metadata, type NotFound, nowIn, type StorageError, type StorageFailure, type Timestamp, typedStorageFailures, withNewId, withNewIds } from "@paykit/core"
import { type Cause, creation, type HistoryEntry, type Machine, stateFieldOf, transition } from "@paykit/machines"
import { EventLog } from "./ports/event-log.ts"
import { type Repository, Transactor, type VersionConflict, type Versioned } from "./ports/repository.ts"
import type { Event, EventResourceType } from "./domain/events.ts"
import { sortKeyOf, type Transition, transitionIdOf } from "./domain/transitions.ts"

/** The services every engine operation needs besides its repositories. */
export type EngineContext = IdGenerator | EventLog

/**
 * Captures the `EngineContext` services when a service is built and gives a function that
 * provides them to an operation. Each is added as one entry on top of the caller's context, so a
 * call costs the same whatever the size of the context the service was built in (providing the
 * whole captured build context instead copied every repository and service into each call's),
 * and both in one step (a `provideService` each was two steps more on every operation).
 */
export const captureEngineContext = Effect.gen(function*() {
  const ids = yield* IdGenerator
  const log = yield* EventLog
  // Made once, not per operation.
  const withEngine = (context: Context.Context<unknown>): Context.Context<unknown> =>
    // A caller running in the context the engine was built in (the HTTP server, most embedders)
    // has both already: the context is kept as it is, which spares the step that would restore
    // it and keeps its lookups as short.
    Context.getOrUndefined(context, IdGenerator) === ids && Context.getOrUndefined(context, EventLog) === log
      ? context
      : Context.add(Context.add(context, IdGenerator, ids), EventLog, log)
  return <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<Exclude<R, IdGenerator>, EventLog>> =>
    // The context gains the two services the result's type no longer asks for.
    Effect.updateContext(effect, withEngine as unknown as (context: Context.Context<Exclude<Exclude<R, IdGenerator>, EventLog>>) => Context.Context<R>)
})

/**
 * As `captureEngineContext`, and each operation run through the result is one unit of work: its
 * writes and events commit together or not at all. It fails with the storage's failures too
 * (`typedStorageFailures`): a fault, or an id taken already.
 */
export const captureUnitOfWork: Effect.Effect<UnitOfWork, never, IdGenerator | EventLog | Transactor> = Effect.gen(function*() {
  const provideEngine = yield* captureEngineContext
  const transactor = yield* Transactor
  return <A, E>(effect: Effect.Effect<A, E, EngineContext>): Effect.Effect<A, E | StorageFailure> =>
    typedStorageFailures(transactor.transaction(provideEngine(effect)))
})

/** Runs an operation as one unit of work (`captureUnitOfWork`). */
export type UnitOfWork = <A, E>(effect: Effect.Effect<A, E, EngineContext>) => Effect.Effect<A, E | StorageFailure>

/** As `captureEngineContext`, for services that emit no events and need only ids. */
export const captureIdGenerator = Effect.gen(function*() {
  const ids = yield* IdGenerator
  return <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, IdGenerator>> =>
    Effect.provideService(effect, IdGenerator, ids)
})

export interface EventDraft {
  readonly resource_type: EventResourceType
  readonly action: string
  readonly links: Readonly<Record<string, string>>
  readonly cause: Cause
  readonly resource_metadata?: Metadata
  readonly metadata?: Metadata
  readonly extra?: { readonly scheme?: string; readonly reason_code?: string; readonly will_attempt_retry?: boolean; readonly currency?: string }
}

const describe = (draft: EventDraft): string =>
  draft.cause.description ?? `${draft.resource_type.replace(/_/g, " ").replace(/s$/, "")} ${draft.action.replace(/_/g, " ")}`

const NO_METADATA: Metadata = Object.freeze({})

const eventOf = (id: string, created_at: Timestamp, draft: EventDraft): Event => ({
  id,
  created_at,
  resource_type: draft.resource_type,
  action: draft.action,
  // Drafts and their maps are immutable values: the event keeps them rather than copies.
  links: draft.links,
  details: { origin: draft.cause.origin, cause: draft.cause.cause, description: describe(draft), ...draft.extra },
  metadata: draft.metadata ?? NO_METADATA,
  resource_metadata: draft.resource_metadata ?? NO_METADATA
})

/**
 * Appends one event to the log (inside the caller's unit of work) and returns it. Every change
 * goes through here, some twice, so it takes as few steps as it can: `withNewId`'s one, then the
 * append (an `Effect.gen`, or a step per service and per clock read, was most of a write's steps
 * and allocation).
 */
export const emit = (organisation: string, draft: EventDraft): Effect.Effect<Event, StorageError, EngineContext> =>
  withNewId("event", (id, created_at, fiber) => {
    const event = eventOf(id, created_at, draft)
    // The signature requires the log, so it is in the fiber's context.
    return Effect.as(Context.getUnsafe(fiber.context, EventLog).append(organisation, [event]), event)
  })

/**
 * Appends several events in the order given, at one instant and in one append: what `emit` per
 * draft does, in the steps of one.
 */
export const emitAll = (organisation: string, drafts: ReadonlyArray<EventDraft>): Effect.Effect<ReadonlyArray<Event>, StorageError, EngineContext> =>
  withNewIds("event", drafts.length, (ids, created_at, fiber) => {
    // One ascending id per draft (`withNewIds` made drafts.length): the events keep the drafts' order.
    const events = drafts.map((draft, i) => eventOf(ids[i] as string, created_at, draft))
    // The signature requires the log, so it is in the fiber's context.
    return Effect.as(Context.getUnsafe(fiber.context, EventLog).append(organisation, events), events)
  })

/** A lost optimistic-concurrency race, as the API's 409 `conflict`. */
export const conflictOf = (e: VersionConflict): InvalidState =>
  new InvalidState({ reason: "conflict", message: e.message })

/** What `save` makes of an update's refusals; made once, not per save. */
const SAVE_REFUSALS = {
  VersionConflict: (e: VersionConflict) => Effect.fail(conflictOf(e)),
  // The resource was read in this unit of work: its disappearance is a storage defect.
  NotFound: (e: NotFound) => Effect.die(e)
}

/** Saves a changed resource with the version it was read at; a lost race is a 409 conflict. */
export const save = <A extends { readonly id: string; readonly created_at: string }, K extends string>(
  repository: Repository<A, K>,
  organisation: string,
  current: Versioned<A>,
  next: A
): Effect.Effect<Versioned<A>, InvalidState | StorageError> => Effect.catchTags(repository.update(organisation, next, current.version), SAVE_REFUSALS)

/**
 * Inserts a freshly made resource; a duplicate id can only be a defect of the id generator (or a
 * store shared with another generator), typed again as `DuplicateId` at the operation's boundary.
 */
export const insertNew = <A extends { readonly id: string; readonly created_at: string }, K extends string>(
  repository: Repository<A, K>,
  organisation: string,
  resource: A
): Effect.Effect<Versioned<A>, StorageError> => Effect.catchTag(repository.insert(organisation, resource), "DuplicateId", Effect.die)

export interface TransitionRequest<A, S extends string, E extends string, C> {
  readonly organisation: string
  readonly machine: Machine<S, E, C>
  readonly current: Versioned<A>
  readonly event: E
  readonly context: C
  readonly cause: Cause
  /** Other fields that change with the status (timestamps, links). */
  readonly patch?: (resource: A, at: Timestamp) => A
  readonly links: Readonly<Record<string, string>>
  readonly extra?: EventDraft["extra"]
  /** The metadata an action's body gives its event (the real API keeps a cancellation's there, not on the resource). */
  readonly eventMetadata?: Metadata
}

/**
 * A creation or status change the machine's table accepted: the resource after it, the history
 * entry the table made, and the API event drafted from that entry (none where it emits none).
 */
export interface Transitioned<A> {
  readonly next: A
  readonly entry: HistoryEntry<string, string>
  readonly event: EventDraft | undefined
}

/**
 * The status change of `request`, computed and not stored: the machine's table accepts the event
 * from `resource`'s status (or refuses it with `InvalidState`), the patch is applied at `at`, and
 * the event the table names is drafted. `applyTransition` stores it; a creation whose resource
 * moves on at once (an outbound payment verified as it is made) stores only its final state.
 */
export const transitionOf = <
  A extends Stateful<S> & { readonly metadata?: Metadata },
  S extends string,
  E extends string,
  C
>(
  resource: A,
  request: Omit<TransitionRequest<A, S, E, C>, "current" | "organisation">,
  at: Timestamp
): Result.Result<Transitioned<A>, InvalidState> => {
  const field = stateFieldOf(request.machine)
  // `Stateful<S>`: the field the machine names holds an S.
  const state = (resource as unknown as Readonly<Record<string, S>>)[field] as S
  const outcome = transition(request.machine, state, request.event, { at, cause: request.cause, context: request.context })
  if (Result.isFailure(outcome)) return Result.fail(outcome.failure)
  const entry = outcome.success
  const patched = request.patch === undefined ? resource : request.patch(resource, at)
  const next = { ...patched, [field]: entry.to }
  return Result.succeed({ next, entry, event: draftOf(entry, next, request) })
}

/**
 * The fields a machine's state is kept in (`Machine.field`): `status`, or a creditor's
 * `verification_status`.
 */
export type StateField = "status" | "verification_status"

/** A resource holding a machine's state `S` in one of the state fields. */
export type Stateful<S extends string> = { readonly status: S } | { readonly verification_status: S }

/** A stored resource whose status a machine governs. */
export type MachineResource<S extends string> = Stateful<S> & {
  readonly id: string
  readonly created_at: string
  readonly metadata?: Metadata
}

/** The stored row of the history entry of step `step` of the write that gave the resource `version`. */
const historyRow = (resourceId: string, version: number, step: number, entry: HistoryEntry<string, string>, eventId: string | null): Transition => {
  const sortKey = sortKeyOf(version, step)
  return {
    id: transitionIdOf(entry.at, resourceId, sortKey),
    created_at: entry.at,
    resource_id: resourceId,
    sort_key: sortKey,
    resource_type: entry.resource_type,
    from: entry.from,
    to: entry.to,
    event: entry.event,
    emits: entry.emits,
    at: entry.at,
    cause: entry.cause,
    event_id: eventId
  }
}

const NO_EVENTS: ReadonlyArray<Event> = []

/**
 * Records the moves of one write of a resource (the write gave it `version`): the history row of
 * each, and the API event derived from each entry that names one, appended together after it.
 * Event ids are drawn only for the entries that emit, so a move without an event takes no id.
 */
const recordMoves = (
  organisation: string,
  resourceId: string,
  version: number,
  moves: ReadonlyArray<Transitioned<unknown>>
): Effect.Effect<void, StorageError, EngineContext> => {
  let emitting = 0
  for (const move of moves) if (move.event !== undefined) emitting++
  if (emitting === 0) {
    return Effect.withFiber((fiber) => {
      const rows: Array<Transition> = []
      for (let step = 0; step < moves.length; step++) rows.push(historyRow(resourceId, version, step, (moves[step] as Transitioned<unknown>).entry, null))
      return Context.getUnsafe(fiber.context, EventLog).record(organisation, rows, NO_EVENTS)
    })
  }
  return withNewIds("event", emitting, (ids, created_at, fiber) => {
    const rows: Array<Transition> = []
    const events: Array<Event> = []
    // Loops, not `forEach`/`map`: every creation and status change records here.
    for (let step = 0; step < moves.length; step++) {
      const move = moves[step] as Transitioned<unknown>
      const draft = move.event
      const event = draft === undefined ? undefined : eventOf(ids[events.length] as string, created_at, draft)
      if (event !== undefined) events.push(event)
      rows.push(historyRow(resourceId, version, step, move.entry, event === undefined ? null : event.id))
    }
    // The signature requires the log, so it is in the fiber's context.
    return Context.getUnsafe(fiber.context, EventLog).record(organisation, rows, events)
  })
}

/**
 * Stores a move the table accepted with `store` (a write that gives the resource `version`), then
 * records its history entry and the event derived from it, and answers what `store` did; a
 * refusal stores nothing.
 */
const commitMove = <A extends { readonly id: string }, B>(
  organisation: string,
  outcome: Result.Result<Transitioned<A>, InvalidState>,
  version: number,
  store: (next: A) => Effect.Effect<B, InvalidState | StorageError>
): Effect.Effect<B, InvalidState | StorageError, EngineContext> => {
  if (Result.isFailure(outcome)) return Effect.fail(outcome.failure)
  const move = outcome.success
  return Effect.flatMap(store(move.next), (b) => Effect.as(recordMoves(organisation, move.next.id, version, [move]), b))
}

/**
 * The one way a status changes: the machine's table accepts the event (or refuses it with
 * `InvalidState`), the resource is saved with its version, and the event the table names is
 * appended in the same unit of work.
 */
export const applyTransition = <A extends MachineResource<S>, K extends string, S extends string, E extends string, C>(
  repository: Repository<A, K>,
  request: TransitionRequest<A, S, E, C>
): Effect.Effect<A, InvalidState | StorageError, EngineContext> =>
  // A chain of steps, not Effect.gen: every status change of every resource runs it (see `emit`);
  // the clock is read in the first step rather than in one of its own.
  Effect.withFiber((fiber) =>
    commitMove(request.organisation, transitionOf(request.current.resource, request, nowIn(fiber)), request.current.version + 1, (next) =>
      Effect.as(save(repository, request.organisation, request.current, next), next)))

/**
 * Saves a move that a machine's own function computed (the billing request's moves its actions
 * with its status): `next` carries the entry's status; it is saved at the version it was read,
 * and the entry is recorded with the event derived from it, as `applyTransition` does.
 */
export const saveMove = <A extends MachineResource<S>, K extends string, S extends string>(
  repository: Repository<A, K>,
  organisation: string,
  current: Versioned<A>,
  move: { readonly next: A; readonly entry: HistoryEntry<S, string> },
  request: { readonly cause: Cause; readonly links: Readonly<Record<string, string>>; readonly extra?: EventDraft["extra"] }
): Effect.Effect<A, InvalidState | StorageError, EngineContext> =>
  commitMove(organisation, Result.succeed({ ...move, event: draftOf(move.entry, move.next, request) }), current.version + 1, (next) =>
    Effect.as(save(repository, organisation, current, next), next))

export interface CreationRequest<A extends Stateful<S>, S extends string, E extends string, C> {
  readonly organisation: string
  readonly machine: Machine<S, E, C>
  /** One of the machine's initial states; the table refuses any other. */
  readonly state: S
  /** Every field but the state (`status`), which only the machine's creation entry sets. */
  readonly resource: Omit<A, StateField>
  readonly cause: Cause
  readonly links: Readonly<Record<string, string>>
  readonly extra?: EventDraft["extra"]
  /**
   * Moves the new resource makes at once (an outbound payment verified as it is made): each goes
   * through the table like `applyTransition`, and only the state after the last is stored, in the
   * same one insert, with the history entry and event of every step.
   */
  readonly then?: ReadonlyArray<FollowingMove<A, S, E, C>>
}

/** A move made in the same write as a creation: a transition request without `current`. */
export type FollowingMove<A, S extends string, E extends string, C> = Omit<TransitionRequest<A, S, E, C>, "organisation" | "machine" | "current">

/** The API event a history entry names, drafted for `resource`; none where the table emits none. */
const draftOf = <S extends string, E extends string>(
  entry: HistoryEntry<S, E>,
  resource: { readonly metadata?: Metadata },
  request: {
    readonly cause: Cause
    readonly links: Readonly<Record<string, string>>
    readonly extra?: EventDraft["extra"]
    readonly eventMetadata?: Metadata
  }
): EventDraft | undefined =>
  entry.emits === null ? undefined : {
    resource_type: entry.resource_type as EventResourceType,
    action: entry.emits,
    links: request.links,
    cause: request.cause,
    ...(resource.metadata === undefined ? {} : { resource_metadata: resource.metadata }),
    ...(request.extra === undefined ? {} : { extra: request.extra }),
    ...(request.eventMetadata === undefined ? {} : { metadata: request.eventMetadata })
  }

const FIELD_ORDER = new WeakMap<Schema.Top, ReadonlyArray<string>>()

/** A resource Schema's field names in its wire order, the order the SQL adapter answers in. */
const fieldOrderOf = (schema: Schema.Top): ReadonlyArray<string> => {
  const known = FIELD_ORDER.get(schema)
  if (known !== undefined) return known
  const ast = schema.ast
  const order = SchemaAST.isObjects(ast) ? ast.propertySignatures.map((p) => String(p.name)) : []
  FIELD_ORDER.set(schema, order)
  return order
}

/**
 * `fields` with the state in `field`, keys in the Schema's order: a stored resource reads the
 * same (down to its JSON) on every storage, whichever wrote it.
 */
const withStatus = (fields: object, field: string, status: string, schema: Schema.Top): Readonly<Record<string, unknown>> => {
  // Typed `Omit<A, StateField>` by the caller: its keys are the Schema's, so none is left out here.
  const source = fields as Readonly<Record<string, unknown>>
  const out: Record<string, unknown> = {}
  for (const key of fieldOrderOf(schema)) {
    if (key === field) out[key] = status
    else if (key in source) out[key] = source[key]
  }
  return out
}

/**
 * A resource's creation, computed and not stored: the machine's `creation` entry gives the status
 * (or refuses a state outside the table's initial ones) and the event it names is drafted.
 * `schema` is the resource's, whose field order the result keeps.
 */
export const creationOf = <A extends Stateful<S> & { readonly metadata?: Metadata }, S extends string, E extends string, C>(
  request: Omit<CreationRequest<A, S, E, C>, "organisation">,
  at: Timestamp,
  schema: Schema.Top
): Result.Result<Transitioned<A>, InvalidState> =>
  Result.map(creation(request.machine, request.state, { at, cause: request.cause }), (entry) => {
    // `Omit<A, StateField>` with the entry's state is an `A`; TypeScript cannot see it for a generic A.
    const next = withStatus(request.resource, stateFieldOf(request.machine), entry.to, schema) as unknown as A
    return { next, entry, event: draftOf(entry, next, request) }
  })

/**
 * The one way a resource of a machine comes into being: the table's creation entry sets its
 * status, the resource is inserted, and the event the entry names is appended, in the caller's
 * unit of work. Answers the stored resource with its version, for a move that follows at once.
 */
export const applyCreation = <A extends MachineResource<S>, K extends string, S extends string, E extends string, C>(
  repository: Repository<A, K>,
  request: CreationRequest<A, S, E, C>
): Effect.Effect<Versioned<A>, InvalidState | StorageError, EngineContext> =>
  Effect.withFiber((fiber) => {
    const at = nowIn(fiber)
    const created = creationOf(request, at, repository.definition.schema)
    if (request.then === undefined || request.then.length === 0) {
      return commitMove(request.organisation, created, 1, (next) => insertNew(repository, request.organisation, next))
    }
    if (Result.isFailure(created)) return Effect.fail(created.failure)
    const steps: Array<Transitioned<A>> = [created.success]
    for (const move of request.then) {
      const last = steps[steps.length - 1] as Transitioned<A>
      const outcome = transitionOf(last.next, { ...move, machine: request.machine }, at)
      if (Result.isFailure(outcome)) return Effect.fail(outcome.failure)
      steps.push(outcome.success)
    }
    const final = (steps[steps.length - 1] as Transitioned<A>).next
    return Effect.flatMap(insertNew(repository, request.organisation, final), (stored) =>
      Effect.as(recordMoves(request.organisation, final.id, stored.version, steps), stored))
  })

/**
 * The creation of a resource kept inside another (a creditor's scheme identifiers): the table's
 * creation entry sets its state and is recorded in the caller's unit of work; the caller stores
 * the answer in its owner in the same unit. `schema` is the resource's, whose field order it keeps.
 */
export const createEmbedded = <A extends MachineResource<S>, S extends string, E extends string, C>(
  request: Omit<CreationRequest<A, S, E, C>, "then">,
  schema: Schema.Top
): Effect.Effect<A, InvalidState | StorageError, EngineContext> =>
  Effect.withFiber((fiber) => commitMove(request.organisation, creationOf(request, nowIn(fiber), schema), 1, (next) => Effect.succeed(next)))

/** Whether the machine accepts `event` in `state` (used to skip work that is not due). */
export const accepts = <S extends string, E extends string, C>(
  machine: Machine<S, E, C>,
  state: S,
  event: E,
  context: C,
  at: Timestamp
): boolean => Result.isSuccess(transition(machine, state, event, { at, cause: { origin: "gocardless", cause: "check" }, context }))

export const API_CAUSE = (cause: string, description?: string): Cause =>
  description === undefined ? { origin: "api", cause } : { origin: "api", cause, description }
