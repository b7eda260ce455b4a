import { API_OPTIONS, API_OPTIONS_HELP, apiOf, field } from "./api.ts"
import { type CommandBody, printResult, positionalOf } from "./args.ts"

/**
 * `paykit advance`: the sandbox's time travel (`POST /sandbox/simulator/advance`, docs/server.md
 * "The sandbox clocks") for the organisation whose token is sent.
 */

/** What `advance` sends for its argument: a number of seconds, an ISO 8601 duration (`P1D`), else a date or date-time. */
export const advanceBody = (target: string): { readonly by: number | string } | { readonly to: string } =>
  /^\d+$/.test(target) ? { by: Number(target) } : /^P/i.test(target) ? { by: target.toUpperCase() } : { to: target }

export const command: CommandBody = {
  usage: ["advance <duration|date>     (P1D, PT3H, P1W2D, 86400 seconds, 2027-01-01, 2027-01-01T09:00:00Z)"],
  options: API_OPTIONS,
  optionsHelp: API_OPTIONS_HELP,
  maxPositionals: 1,
  action: async (parsed, io) => {
    const target = advanceBody(positionalOf(parsed, 0, "duration|date"))
    const body = await apiOf(parsed, io).request("POST", "/sandbox/simulator/advance", target)
    printResult(io, parsed, body, [`the clock is now ${field(body, "simulator_clock", "now")} (offset ${field(body, "simulator_clock", "offset")})`])
  }
}
