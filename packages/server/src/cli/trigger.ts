import {
  isScenarioName, nearestScenario, SCENARIO_CATALOGUE, SCENARIO_NAMES, SCENARIO_SIMULATORS, type ScenarioCollection, type ScenarioEntry, scenarioEntry,
  scenariosFor
} from "@paykit/engine/scenario-catalogue"
import { type Api, API_OPTIONS, API_OPTIONS_HELP, apiOf, field } from "./api.ts"
import { CommandFailure, type CommandBody, type Io, type Parsed, positionalOf, printResult } from "./args.ts"

/**
 * `paykit trigger`: the sandbox's scenario simulators (`POST
 * /scenario_simulators/{type}/actions/run`) for the organisation whose token is sent, and which
 * of them apply to a resource where it is now. What the scenarios are and where each starts is
 * the engine's catalogue (`@paykit/engine/scenario-catalogue`, data only), so a misspelt name is
 * answered with the nearest one, and a resource's scenarios are found from its status, without
 * loading the engine.
 */

/** An id (`PM01...`, upper case) rather than a scenario's name (lower case): `trigger <id>` lists. */
const ID = /^[A-Z]{2,4}[0-9A-Z]{6,}$/

const COLLECTIONS: ReadonlyArray<ScenarioCollection> = [...new Set(SCENARIO_NAMES.map((name) => SCENARIO_CATALOGUE[name].collection))]

const startsFromOf = (entry: ScenarioEntry | undefined): ReadonlyArray<string> | undefined => entry?.startsFrom

/** The statuses a scenario starts from, as words ("any: judged on more than the status" where it names none). */
const fromWords = (entry: ScenarioEntry | undefined): string => {
  const from = startsFromOf(entry)
  const schemes = entry?.schemes === undefined ? "" : `; ${entry.schemes.join(", ")} mandates only`
  return `${from === undefined ? "judged on more than the status" : from.join(", ")}${schemes}`
}

/** `--help`'s list: every scenario, by the resource it takes, with the statuses it starts from. */
const CATALOGUE_HELP = [
  "scenarios, by the resource each takes (and where each starts from):",
  ...COLLECTIONS.flatMap((collection) => {
    const names = SCENARIO_NAMES.filter((name) => SCENARIO_CATALOGUE[name].collection === collection)
    const width = Math.max(...names.map((n) => n.length)) + 2
    return [`  ${collection}`, ...names.map((name) => `    ${name.padEnd(width)}${fromWords(SCENARIO_CATALOGUE[name])}`)]
  })
]

/** `billing_requests` -> `billing request`. */
const nounOf = (collection: ScenarioCollection): string => collection.replace(/s$/, "").replaceAll("_", " ")

interface Located {
  readonly id: string
  readonly collection: ScenarioCollection
  readonly status: string | undefined
  readonly scheme: string | undefined
}

/** The status the scenarios judge: a creditor's verification, else the resource's status. */
const statusOf = (collection: ScenarioCollection, resource: unknown): string | undefined => {
  const value = field(resource, collection === "creditors" ? "verification_status" : "status")
  return value === "" ? undefined : value
}

/** A refusal that means "not in this collection": the id's prefix is another's, or no such resource. */
const notHere = (error: unknown): boolean => error instanceof CommandFailure && (error.status === 404 || error.status === 400 || error.status === 422)

/** The resource an id names among the collections scenarios take (each asked at once; the API says which holds it). */
const locate = async (api: Api, id: string): Promise<Located | undefined> => {
  const found = await Promise.all(COLLECTIONS.map(async (collection) => {
    try {
      const body = await api.request("GET", `/${collection}/${encodeURIComponent(id)}`)
      const scheme = collection === "mandates" ? field(body[collection], "scheme") : ""
      return { id, collection, status: statusOf(collection, body[collection]), scheme: scheme === "" ? undefined : scheme }
    } catch (error) {
      if (notHere(error)) return undefined
      throw error
    }
  }))
  return found.find((f) => f !== undefined)
}

/** What `trigger <id>` prints: where the resource is, the scenarios that start there, and where the others start. */
const listFor = (io: Io, parsed: Parsed, where: Located): void => {
  const { apply, other } = scenariosFor(where)
  const noun = nounOf(where.collection)
  const others = other.map((name) => ({ id: name, starts_from: startsFromOf(scenarioEntry(name)) ?? null }))
  const status = where.status ?? "no status"
  printResult(io, parsed, { resource: where, scenarios: apply, others }, [
    `${where.id} is a ${where.scheme === undefined ? "" : `${where.scheme} `}${noun} in ${status}.`,
    ...(apply.length === 0
      ? [`No scenario starts from ${status}. The ${noun} scenarios start from:`]
      : ["Scenarios that start from there:", ...apply.map((name) => `  ${name}`), ...(others.length === 0 ? [] : ["The others start from:"])]),
    ...others.map((o) => `  ${o.id.padEnd(Math.max(...others.map((x) => x.id.length)) + 2)}${fromWords(scenarioEntry(o.id))}`),
    ...(apply.length === 0 ? [] : [`Run one: paykit trigger ${apply[0]} ${where.id}`])
  ])
}

/** One clause added to a refusal: the nearest name for an unknown one, the scenarios that start where the resource is for a precondition. */
const explain = async (api: Api, scenario: string, resource: string, error: CommandFailure): Promise<string | undefined> => {
  if (error.status === 404 && !isScenarioName(scenario)) {
    const near = nearestScenario(scenario)
    return `${near === undefined ? "no scenario has this name" : `did you mean ${near}?`} (paykit trigger --help lists them)`
  }
  const reason = field(error.detail, "error", "errors")
  if (error.status !== 422 || !reason.includes("scenario_precondition_failed")) return undefined
  const entry = scenarioEntry(scenario)
  if (entry === undefined) return undefined
  const where = await locate(api, resource).catch(() => undefined)
  if (where === undefined) return undefined
  const { apply } = scenariosFor(where)
  return apply.length === 0
    ? `no ${nounOf(where.collection)} scenario starts from ${where.status ?? "its status"}`
    : `from ${where.status ?? "its status"}: ${apply.join(", ")}`
}

export const command: CommandBody = {
  usage: ["trigger <scenario> <resource id>", "trigger <resource id>            the scenarios that start where the resource is now"],
  options: API_OPTIONS,
  optionsHelp: API_OPTIONS_HELP,
  notes: CATALOGUE_HELP,
  maxPositionals: 2,
  action: async (parsed, io) => {
    const first = positionalOf(parsed, 0, "scenario")
    const api = apiOf(parsed, io)
    if (parsed.positionals.length === 1 && ID.test(first)) {
      const where = await locate(api, first)
      if (where === undefined) throw new CommandFailure(`no ${COLLECTIONS.join(", ")} of this organisation has the id ${first}`)
      return listFor(io, parsed, where)
    }
    const resource = positionalOf(parsed, 1, "resource id")
    let body: Record<string, unknown>
    try {
      body = await api.request("POST", `/${SCENARIO_SIMULATORS}/${encodeURIComponent(first)}/actions/run`, { data: { links: { resource } } })
    } catch (error) {
      if (!(error instanceof CommandFailure)) throw error
      const more = await explain(api, first, resource, error)
      throw more === undefined ? error : new CommandFailure(`${error.message}; ${more}`, error.detail, error.status)
    }
    printResult(io, parsed, body, [`ran ${field(body, SCENARIO_SIMULATORS, "id") || first} on ${resource}`])
  }
}
