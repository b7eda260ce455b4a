import { Layer } from "effect"
import { OutboundPaymentImports } from "./outbound-payment-imports.ts"
import { OutboundPayments } from "./outbound-payments.ts"
import { PaymentAccounts } from "../payment-accounts/payment-accounts.ts"
import { PaymentAccountTransactions } from "../payment-accounts/payment-account-transactions.ts"
import { OutboundPaymentStatistics } from "./outbound-payment-stats.ts"

/**
 * The outbound family: payment accounts and their transactions, outbound payments (and their stats) and their imports (which create
 * their payments through `OutboundPayments`). Needs the repositories, storage, `BankGateway`,
 * `NameVerifier` and `IdGenerator`, like every other engine service.
 */
export const OutboundServices = Layer.mergeAll(
  PaymentAccounts.layer,
  PaymentAccountTransactions.layer,
  OutboundPaymentStatistics.layer,
  OutboundPaymentImports.layer.pipe(Layer.provideMerge(OutboundPayments.layer))
)
