import type { GoCardlessClient } from "gocardless-nodejs"
import { fulfilledMandateRequest } from "./harness.ts"

/** A payment made through the official client, as a merchant makes one: on a Bacs mandate from a billing request. */
export const bacsPayment = async (client: GoCardlessClient, amount = 1500): Promise<string> => {
  const { mandate } = await fulfilledMandateRequest(client)
  const payment = await client.payments.create({ amount, currency: "GBP", links: { mandate } } as never)
  return payment.id ?? ""
}
