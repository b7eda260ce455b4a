import { SCENARIO_SIMULATORS } from "@paykit/engine"
import { API_OPTIONS, API_OPTIONS_HELP, apiOf, field } from "./api.ts"
import { defineCommand, printResult, positionalOf } from "./args.ts"

/**
 * `paykit advance` and `paykit trigger`: the sandbox's time travel (`POST
 * /sandbox/simulator/advance`, docs/server.md "The sandbox clocks") and its scenario simulators
 * (`POST /scenario_simulators/{type}/actions/run`), for the organisation whose token is sent.
 */

/** What `advance` sends for its argument: a number of seconds, an ISO 8601 duration (`P1D`), else a date or date-time. */
export const advanceBody = (target: string): { readonly by: number | string } | { readonly to: string } =>
  /^\d+$/.test(target) ? { by: Number(target) } : /^P/i.test(target) ? { by: target.toUpperCase() } : { to: target }

export const advanceCommand = defineCommand({
  name: "advance",
  summary: "move the organisation's sandbox clock forward, running what falls due on the way",
  usage: ["advance <duration|date>     (P1D, PT3H, P1W2D, 86400 seconds, 2027-01-01, 2027-01-01T09:00:00Z)"],
  options: API_OPTIONS,
  optionsHelp: API_OPTIONS_HELP,
  maxPositionals: 1,
  action: async (parsed, io) => {
    const target = advanceBody(positionalOf(parsed, 0, "duration|date"))
    const body = await apiOf(parsed, io).request("POST", "/sandbox/simulator/advance", target)
    printResult(io, parsed, body, [`the clock is now ${field(body, "simulator_clock", "now")} (offset ${field(body, "simulator_clock", "offset")})`])
  }
})

export const triggerCommand = defineCommand({
  name: "trigger",
  summary: "run a scenario simulator on a resource (mandate_activated, payment_paid_out, ...)",
  usage: ["trigger <scenario> <resource id>"],
  options: API_OPTIONS,
  optionsHelp: API_OPTIONS_HELP,
  maxPositionals: 2,
  action: async (parsed, io) => {
    const scenario = positionalOf(parsed, 0, "scenario")
    const resource = positionalOf(parsed, 1, "resource id")
    const body = await apiOf(parsed, io).request("POST", `/scenario_simulators/${encodeURIComponent(scenario)}/actions/run`, { data: { links: { resource } } })
    printResult(io, parsed, body, [`ran ${field(body, SCENARIO_SIMULATORS, "id") || scenario} on ${resource}`])
  }
})
