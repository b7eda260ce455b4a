import { servicesOf } from "../registry/room.ts"
import { paymentAccountsRoom } from "../payment-accounts/room.ts"
import { outboundPaymentsRoom } from "./room.ts"

/**
 * The outbound family: payment accounts and their transactions, outbound payments (and their
 * stats) and their imports, from their rooms. Needs the repositories, storage, `BankGateway`,
 * `NameVerifier` and `IdGenerator`, like every other engine service.
 */
export const OutboundServices = servicesOf([paymentAccountsRoom, outboundPaymentsRoom])
