import { SANDBOX_ORGANISATIONS_PATH } from "../sandbox-paths.ts"
import { API_OPTIONS, API_OPTIONS_HELP, apiOf, field, itemsOf } from "./api.ts"
import { type CommandBody, printResult, positionalOf, stringOf, UsageError } from "./args.ts"

/**
 * `paykit sandbox create|list|delete`: the operator's `/sandbox/organisations` endpoints
 * (docs/testing-with-sandboxes.md), for CI scripts; the bearer is the server's sandbox token or
 * its admin secret. `create` prints the new organisation's token, which is shown this once.
 */
export const command: CommandBody = {
  usage: ["sandbox create [--name <name>] [--start-at <date-time>]", "sandbox list", "sandbox delete <organisation id>"],
  options: { ...API_OPTIONS, name: { type: "string" }, "start-at": { type: "string" } },
  optionsHelp: [
    "  --name <name>            create: the organisation's name",
    "  --start-at <date-time>   create: the instant its clock starts at (now or later)",
    ...API_OPTIONS_HELP
  ],
  maxPositionals: 2,
  action: async (parsed, io) => {
    const action = positionalOf(parsed, 0, "create|list|delete")
    const api = apiOf(parsed, io)
    if (action === "create") {
      const name = stringOf(parsed, "name")
      const startAt = stringOf(parsed, "start-at")
      const body = await api.request("POST", SANDBOX_ORGANISATIONS_PATH, {
        ...(name === undefined ? {} : { name }),
        ...(startAt === undefined ? {} : { start_at: startAt })
      })
      const made = body["organisations"]
      printResult(io, parsed, body, [
        `organisation ${field(made, "id")} (${field(made, "name")}), creditor ${field(made, "links", "creditor")}, clock from ${field(made, "clock_starts_at")}`,
        `access token (shown this once): ${field(made, "access_token")}`
      ])
    } else if (action === "list") {
      const body = await api.request("GET", SANDBOX_ORGANISATIONS_PATH)
      printResult(io, parsed, body, itemsOf(body, "organisations").map((o) => `${field(o, "id")}  ${field(o, "created_at")}  ${field(o, "name")}`))
    } else if (action === "delete") {
      const id = positionalOf(parsed, 1, "organisation id")
      const body = await api.request("DELETE", `${SANDBOX_ORGANISATIONS_PATH}/${encodeURIComponent(id)}`)
      printResult(io, parsed, body, [`deleted ${id}`])
    } else {
      throw new UsageError(`unknown action "${action}": create, list or delete`)
    }
  }
}
