import { Effect, Schema } from "effect"
import { invalidField, InvalidState, type NotFound, type OperationError, type OrganisationId, type StorageError } from "@paykit/core"
import { type Paths, SCENARIO_SIMULATORS } from "./catalogue.ts"

export { type Paths, SCENARIO_SIMULATORS } from "./catalogue.ts"


/** `POST /scenario_simulators/{type}/actions/run`'s `data`: the resource the scenario acts on. */
export const ScenarioRunRequest = Schema.Struct({
  links: Schema.Struct({ resource: Schema.String })
}).annotate({ identifier: "ScenarioRunRequest" })
export type ScenarioRunRequest = typeof ScenarioRunRequest.Type

/** The answer: the scenario that ran (the real API's `ScenarioSimulator`, its name as `id`). */
export const ScenarioSimulator = Schema.Struct({ id: Schema.String }).annotate({ identifier: "ScenarioSimulator" })
export type ScenarioSimulator = typeof ScenarioSimulator.Type

/** A scenario's precondition did not hold: the resource is not where the scenario starts. */
export const SCENARIO_PRECONDITION_FAILED = "scenario_precondition_failed"
/** The scenario needs a payout and none could be made (creditor or account unverified, balance not above zero). */
export const SCENARIO_PAYOUT_NOT_POSSIBLE = "scenario_payout_not_possible"
/** The scenario exists only for some schemes, and the mandate's is not one of them. */
export const SCENARIO_SCHEME_NOT_SUPPORTED = "scenario_scheme_not_supported"

export const preconditionFailed = (scenario: string, message: string): InvalidState =>
  new InvalidState({ reason: SCENARIO_PRECONDITION_FAILED, message: `${scenario}: ${message}` })

export const payoutNotPossible = (scenario: string, what: string): InvalidState =>
  new InvalidState({
    reason: SCENARIO_PAYOUT_NOT_POSSIBLE,
    message: `${scenario}: no payout could ${what}; the creditor and its payout account in the currency must be verified and its unsettled balance above zero`
  })

/**
 * The resource `links.resource` names, of the scenario's type and of this organisation. Another
 * type's id, another organisation's, or none at all is a field error on the link: the scenario's
 * name, not its resource, is what the path names.
 */
export const resourceOf = <A>(lookup: Effect.Effect<A, NotFound | StorageError>, noun: string): Effect.Effect<A, OperationError> =>
  Effect.mapError(lookup, () => invalidField(SCENARIO_SIMULATORS, ["links", "resource"], `must be the id of a ${noun} of this organisation`))


export const stepsFrom = <S extends string, Step>(
  scenario: string,
  noun: string,
  resource: { readonly id: string; readonly status: S },
  paths: Paths<S, Step>
): Effect.Effect<ReadonlyArray<Step>, InvalidState | StorageError> => {
  const steps = paths[resource.status]
  return steps === undefined
    ? Effect.fail(preconditionFailed(scenario, `needs a ${noun} in ${Object.keys(paths).join(" or ")}; ${resource.id} is ${resource.status}`))
    : Effect.succeed(steps)
}

/**
 * One scenario: what it does to the resource named. The resource it takes and where it starts are
 * its entry in `SCENARIO_CATALOGUE` (catalogue.ts), the data its paths come from.
 */
export interface Scenario<D> {
  readonly run: (deps: D, organisation: OrganisationId, id: string, scenario: string) => Effect.Effect<void, OperationError>
}

/** A group's scenarios, one per entry of its table of paths, made alike. */
export const scenariosOf = <K extends string, P, D>(table: Readonly<Record<K, P>>, make: (paths: P) => Scenario<D>): Readonly<Record<K, Scenario<D>>> => {
  const out: Partial<Record<K, Scenario<D>>> = {}
  for (const key of Object.keys(table) as Array<K>) out[key] = make(table[key])
  return out as Record<K, Scenario<D>>
}
