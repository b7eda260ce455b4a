import { Layer } from "effect"
import { OutboundPaymentImports } from "./outbound-payment-imports.ts"
import { OutboundPayments } from "./outbound-payments.ts"
import { PaymentAccounts } from "./payment-accounts.ts"

/**
 * The outbound family: payment accounts, outbound payments and their imports (which create
 * their payments through `OutboundPayments`). Needs the repositories, storage, `BankGateway`,
 * `NameVerifier` and `IdGenerator`, like every other engine service.
 */
export const OutboundServices = Layer.mergeAll(
  PaymentAccounts.layer,
  OutboundPaymentImports.layer.pipe(Layer.provideMerge(OutboundPayments.layer))
)
