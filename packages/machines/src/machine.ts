import { InvalidState, type Timestamp } from "@paykit/core"
import { Result } from "effect"
import type { Cause, HistoryEntry } from "./history.ts"

/**
 * A state machine as one declared table, in the spirit of statesman: states, events, guards and
 * the API event each accepted transition emits. The table holds no storage and no clock; every
 * accepted transition comes back as a history entry that the engine stores and turns into an
 * API event, and every refused one as an `InvalidState` with the real API's style of reason.
 */

/** Why a guard or the table refused an event: the `reason` and `message` of an `InvalidState`. */
export interface Refusal {
  readonly reason: string
  readonly message: string
}

/** A condition on the resource's facts (and the instant of the event) that a rule needs. */
export interface Guard<C> {
  /** Shown on diagrams: `approve [name]`. */
  readonly name: string
  readonly check: (context: C, at: Timestamp) => Refusal | undefined
}

/** A guard that either holds or refuses with one fixed reason. */
export const guard = <C>(
  name: string,
  reason: string,
  message: string,
  holds: (context: C, at: Timestamp) => boolean
): Guard<C> => ({ name, check: (context, at) => (holds(context, at) ? undefined : { reason, message }) })

/** A guard made of several, checked in order; the first refusal wins. */
export const allOf = <C>(name: string, guards: ReadonlyArray<Guard<C>>): Guard<C> => ({
  name,
  check: (context, at) => {
    for (const g of guards) {
      const refusal = g.check(context, at)
      if (refusal !== undefined) return refusal
    }
    return undefined
  }
})

export interface TransitionRule<S extends string, E extends string, C> {
  readonly from: ReadonlyArray<S>
  readonly event: E
  readonly to: S
  readonly guard?: Guard<C>
  /** The API event action this transition emits; null where the real API sends none. */
  readonly emits: string | null
  /** The `InvalidState` reason given when `event` arrives in a state outside `from`. */
  readonly reason: string
}

export interface MachineSpec<S extends string, E extends string, C> {
  /** The API resource type, as in events (`outbound_payments`). */
  readonly name: string
  /** The resource in prose, for messages (`outbound payment`). */
  readonly noun: string
  /**
   * The resource field that holds the state, when it is not `status`: a creditor's verification
   * is its `verification_status`.
   */
  readonly field?: string
  readonly states: ReadonlyArray<S>
  readonly events: ReadonlyArray<E>
  /** The states a resource can be created in (several creation paths exist for some resources). */
  readonly initial: ReadonlyArray<S>
  /** States with no way out; the table is checked to agree. */
  readonly terminal: ReadonlyArray<S>
  /** The API event action emitted on creation; null where the real API sends none. */
  readonly created: string | null
  /**
   * Rules are tried in order for a (state, event) pair: the first whose guard holds wins. Put the
   * most specific rule first; when none holds, the refusal of the last candidate is returned.
   */
  readonly transitions: ReadonlyArray<TransitionRule<S, E, C>>
}

export type Machine<S extends string, E extends string, C> = MachineSpec<S, E, C>

export type StateOf<M> = M extends Machine<infer S, string, unknown> ? S : never
export type EventOf<M> = M extends Machine<string, infer E, unknown> ? E : never
export type ContextOf<M> = M extends Machine<string, string, infer C> ? C : never

/** A table that contradicts itself: a programming error, found when the module loads. */
export class MachineDefinitionError extends Error {
  override readonly name = "MachineDefinitionError"
}

const problemsOf = <S extends string, E extends string, C>(spec: MachineSpec<S, E, C>): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const states = new Set<string>(spec.states)
  const events = new Set<string>(spec.events)
  if (states.size !== spec.states.length) problems.push("duplicate state")
  if (events.size !== spec.events.length) problems.push("duplicate event")
  if (spec.initial.length === 0) problems.push("no initial state")
  for (const s of [...spec.initial, ...spec.terminal]) {
    if (!states.has(s)) problems.push(`unknown state ${s} in initial/terminal`)
  }
  const reasonOfEvent = new Map<string, string>()
  for (const rule of spec.transitions) {
    if (!events.has(rule.event)) problems.push(`unknown event ${rule.event}`)
    if (!states.has(rule.to)) problems.push(`unknown target ${rule.to} of ${rule.event}`)
    if (rule.from.length === 0) problems.push(`rule ${rule.event} has no source state`)
    for (const f of rule.from) {
      if (!states.has(f)) problems.push(`unknown source ${f} of ${rule.event}`)
      if (spec.terminal.includes(f)) problems.push(`terminal state ${f} has outgoing ${rule.event}`)
    }
    const known = reasonOfEvent.get(rule.event)
    if (known !== undefined && known !== rule.reason) problems.push(`event ${rule.event} has two reasons`)
    reasonOfEvent.set(rule.event, rule.reason)
  }
  for (const e of spec.events) {
    if (!reasonOfEvent.has(e)) problems.push(`event ${e} has no rule`)
  }
  // A rule without a guard hides every later rule for the same (state, event).
  spec.transitions.forEach((rule, i) => {
    if (rule.guard !== undefined) return
    for (const later of spec.transitions.slice(i + 1)) {
      if (later.event === rule.event && later.from.some((f) => rule.from.includes(f))) {
        problems.push(`rule ${later.event} -> ${later.to} is unreachable`)
      }
    }
  })
  return problems
}

/**
 * Declares a machine. `C` (the facts the guards read) is given explicitly; the rest is inferred:
 * `defineMachine<MyContext>()({ ... })`. Throws `MachineDefinitionError` on a table that
 * contradicts itself, so a bad table fails at import, never at a customer's request.
 */
export const defineMachine =
  <C>() =>
  <const S extends string, const E extends string>(spec: MachineSpec<S, E, C>): Machine<S, E, C> => {
    const problems = problemsOf(spec)
    if (problems.length > 0) {
      throw new MachineDefinitionError(`machine ${spec.name}: ${problems.join("; ")}`)
    }
    return spec
  }

export interface TransitionInput<C> {
  readonly at: Timestamp
  readonly cause: Cause
  readonly context: C
}

/** The rules of the table for `event` whose source states include `state`, in table order. */
export const rulesFor = <S extends string, E extends string, C>(
  machine: Machine<S, E, C>,
  state: S,
  event: E
): ReadonlyArray<TransitionRule<S, E, C>> => machine.transitions.filter((r) => r.event === event && r.from.includes(state))

const illegalEvent = <S extends string, E extends string, C>(machine: Machine<S, E, C>, state: S, event: E): InvalidState => {
  const rules = machine.transitions.filter((r) => r.event === event)
  const first = rules[0]
  const allowedIn = [...new Set(rules.flatMap((r) => r.from))]
  const noun = machine.noun.charAt(0).toUpperCase() + machine.noun.slice(1)
  return new InvalidState({
    reason: first === undefined ? "invalid_state" : first.reason,
    message:
      allowedIn.length === 0
        ? `${noun} does not accept '${event}'`
        : `${noun} is ${state}; '${event}' is allowed only when it is ${allowedIn.join(", ")}`
  })
}

/** The rule that accepts `event` in `state` with these facts, or why none does. */
export const selectRule = <S extends string, E extends string, C>(
  machine: Machine<S, E, C>,
  state: S,
  event: E,
  context: C,
  at: Timestamp
): Result.Result<TransitionRule<S, E, C>, InvalidState> => {
  const candidates = rulesFor(machine, state, event)
  if (candidates.length === 0) return Result.fail(illegalEvent(machine, state, event))
  let refusal: Refusal | undefined
  for (const rule of candidates) {
    refusal = rule.guard?.check(context, at)
    if (refusal === undefined) return Result.succeed(rule)
  }
  // `refusal` is the last candidate's: the table puts the most general rule last.
  return Result.fail(new InvalidState({ reason: refusal?.reason ?? "invalid_state", message: refusal?.message ?? "" }))
}

/**
 * Applies `event` to a resource in `state`. Pure: the instant and the cause come in with the
 * input, and the answer is either the history entry of the accepted transition (its `to` is the
 * new state) or an `InvalidState`; a refused event never leaves a trace.
 */
export const transition = <S extends string, E extends string, C>(
  machine: Machine<S, E, C>,
  state: S,
  event: E,
  input: TransitionInput<C>
): Result.Result<HistoryEntry<S, E>, InvalidState> =>
  Result.map(selectRule(machine, state, event, input.context, input.at), (rule) => ({
    resource_type: machine.name,
    from: state,
    to: rule.to,
    event,
    emits: rule.emits,
    at: input.at,
    cause: input.cause
  }))

/** Whether `event` would be accepted in `state` with these facts. */
export const canTransition = <S extends string, E extends string, C>(
  machine: Machine<S, E, C>,
  state: S,
  event: E,
  context: C,
  at: Timestamp
): boolean => Result.isSuccess(selectRule(machine, state, event, context, at))

/**
 * The events the table has a rule for in `state`; with `facts`, only those whose guards also
 * hold for them (what a dashboard would offer as buttons).
 */
export const allowedEvents = <S extends string, E extends string, C>(
  machine: Machine<S, E, C>,
  state: S,
  facts?: { readonly context: C; readonly at: Timestamp }
): ReadonlyArray<E> =>
  machine.events.filter((event) =>
    facts === undefined
      ? rulesFor(machine, state, event).length > 0
      : canTransition(machine, state, event, facts.context, facts.at))

/** The history entry of a resource's creation in one of the machine's initial states. */
export const creation = <S extends string, E extends string, C>(
  machine: Machine<S, E, C>,
  state: S,
  input: { readonly at: Timestamp; readonly cause: Cause }
): Result.Result<HistoryEntry<S, E>, InvalidState> =>
  machine.initial.includes(state)
    ? Result.succeed({
      resource_type: machine.name,
      from: null,
      to: state,
      event: "create",
      emits: machine.created,
      at: input.at,
      cause: input.cause
    })
    : Result.fail(
      new InvalidState({
        reason: "invalid_state",
        message: `A ${machine.noun} cannot be created as ${state}; it starts as ${machine.initial.join(" or ")}`
      })
    )

/** One step of a replay: the event and its input. */
export interface Step<E extends string, C> {
  readonly event: E
  readonly input: TransitionInput<C>
}

/**
 * Applies steps in order from `state`, stopping at the first refusal. Gives the state reached,
 * the history of every accepted step, and the refusal that stopped it, if any.
 */
export const replay = <S extends string, E extends string, C>(
  machine: Machine<S, E, C>,
  state: S,
  steps: ReadonlyArray<Step<E, C>>
): { readonly state: S; readonly history: ReadonlyArray<HistoryEntry<S, E>>; readonly refused?: InvalidState } => {
  let current = state
  const history: Array<HistoryEntry<S, E>> = []
  for (const step of steps) {
    const result = transition(machine, current, step.event, step.input)
    if (Result.isFailure(result)) return { state: current, history, refused: result.failure }
    history.push(result.success)
    current = result.success.to
  }
  return { state: current, history }
}

/** The machine's functions bound to it, typed to its states, events and facts. */
export const bindMachine = <S extends string, E extends string, C>(machine: Machine<S, E, C>) => ({
  machine,
  transition: (state: S, event: E, input: TransitionInput<C>) => transition(machine, state, event, input),
  canTransition: (state: S, event: E, context: C, at: Timestamp) => canTransition(machine, state, event, context, at),
  allowedEvents: (state: S, facts?: { readonly context: C; readonly at: Timestamp }) => allowedEvents(machine, state, facts),
  creation: (state: S, input: { readonly at: Timestamp; readonly cause: Cause }) => creation(machine, state, input),
  replay: (state: S, steps: ReadonlyArray<Step<E, C>>) => replay(machine, state, steps)
})

/**
 * The state `event` leads to from `state` with these facts, or undefined where the table refuses
 * it: for stores that keep no history (the server's tokens and apps) and apply a move in one step.
 */
export const stateAfter = <S extends string, E extends string, C>(
  machine: Machine<S, E, C>,
  state: S,
  event: E,
  context: C,
  at: Timestamp
): S | undefined => {
  const rule = selectRule(machine, state, event, context, at)
  return Result.isSuccess(rule) ? rule.success.to : undefined
}

/**
 * The state a resource is made in, `state`, checked to be one of the table's initial ones: for
 * stores that keep no history. Any other is a defect of the caller, thrown at once.
 */
export const createdState = <S extends string, E extends string, C>(machine: Machine<S, E, C>, state: S): S => {
  if (!machine.initial.includes(state)) throw new MachineDefinitionError(`machine ${machine.name}: ${state} is not an initial state`)
  return state
}
