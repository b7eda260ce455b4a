import { Effect } from "effect"
import { BankAccountHolderVerifications, bankAccountHolderVerifications, REQUEST_BODIES } from "@paykit/engine"
import { createEndpoint, type EndpointDeclaration, getEndpoint } from "../endpoints.ts"
import { routeRoom } from "../routes.ts"

/** Bank account holder verifications: whether an account's holder is the name given. */

const services = Effect.gen(function*() {
  return { bankAccountHolderVerifications: yield* BankAccountHolderVerifications }
})

const BAHV = "bank_account_holder_verifications"

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  createEndpoint(BAHV, bankAccountHolderVerifications.schema, REQUEST_BODIES.bank_account_holder_verifications.create, (s) => s.bankAccountHolderVerifications.create),
  getEndpoint(BAHV, bankAccountHolderVerifications.schema, (s) => s.bankAccountHolderVerifications.get)
]

export const bankAccountHolderVerificationsRoom = routeRoom([BAHV], services, declarations)
