import { Effect } from "effect"
import { createResourceTable } from "./resource-table.ts"

/** The resources of the engine's first cut, and its event log. */
export default Effect.forEach(
  ["creditors", "customers", "customer_bank_accounts", "mandates", "payments", "refunds", "events"],
  createResourceTable,
  { discard: true }
)
