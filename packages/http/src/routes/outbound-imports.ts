import { Effect } from "effect"
import {
  OutboundPaymentImportEntryListParams,
  outboundPaymentImportEntries,
  OutboundPaymentImportListParams,
  OutboundPaymentImports,
  outboundPaymentImports,
  PAYMENT_ACCOUNT_TRANSACTIONS,
  PaymentAccountListParams,
  PaymentAccounts,
  paymentAccounts,
  PaymentAccountTransaction,
  PaymentAccountTransactionListParams,
  PaymentAccountTransactions,
  REQUEST_BODIES
} from "@paykit/engine"
import { bodilessActionEndpoint, createEndpoint, type EndpointDeclaration, getEndpoint, listEndpoint, readUnderId } from "../endpoints.ts"
import { nestedListHandler } from "../read-handlers.ts"
import { routeRoom } from "../routes.ts"
import { page } from "../wire.ts"

/**
 * Outbound payment imports (outbound payments made together once the import is authorised) with
 * their entries, and the payment accounts they are paid from with their transactions.
 */

const services = Effect.gen(function*() {
  return { imports: yield* OutboundPaymentImports, paymentAccounts: yield* PaymentAccounts, transactions: yield* PaymentAccountTransactions }
})

const IMPORTS = "outbound_payment_imports"
const ENTRIES = "outbound_payment_import_entries"
const ACCOUNTS = "payment_accounts"
const PAT = PAYMENT_ACCOUNT_TRANSACTIONS

const declarations: ReadonlyArray<EndpointDeclaration<Effect.Success<typeof services>>> = [
  createEndpoint(IMPORTS, outboundPaymentImports.schema, REQUEST_BODIES.outbound_payment_imports.create, (s) => s.imports.create),
  listEndpoint(IMPORTS, outboundPaymentImports.schema, OutboundPaymentImportListParams, (s) => s.imports.list),
  getEndpoint(IMPORTS, outboundPaymentImports.schema, (s) => s.imports.get),
  bodilessActionEndpoint("cancel", IMPORTS, outboundPaymentImports.schema, (s) => s.imports.cancel),
  listEndpoint(ENTRIES, outboundPaymentImportEntries.schema, OutboundPaymentImportEntryListParams, (s) => s.imports.listEntries),
  listEndpoint(ACCOUNTS, paymentAccounts.schema, PaymentAccountListParams, (s) => s.paymentAccounts.list),
  getEndpoint(ACCOUNTS, paymentAccounts.schema, (s) => s.paymentAccounts.get),
  getEndpoint(PAT, PaymentAccountTransaction, (s) => s.transactions.get),
  readUnderId(PAT, "list", `/${ACCOUNTS}/:id/transactions`, PaymentAccountTransactionListParams, page(PAT, PaymentAccountTransaction), (s) =>
    nestedListHandler(PAT, PaymentAccountTransactionListParams, s.transactions.list))
]

export const outboundImportsRoom = routeRoom([IMPORTS, ENTRIES, ACCOUNTS, PAT], services, declarations)
