import type { BankAuthorisation, GoCardlessClient, OutboundPaymentImport } from "gocardless-nodejs"
import { api, collectPayerDetails, fulfilledMandateRequest, type TestServer } from "./harness.ts"

/**
 * What the pages' tests set up through the official client, as a merchant would: a Pay by Bank
 * billing request waiting only for its bank authorisation, and an outbound payment import.
 */

/** The sandbox token the pages' servers are started with. */
export const PAGES_TOKEN = "pages-test-token-0123456789"

/** A Pay by Bank request (payer details given, bank chosen) and its bank authorisation. */
export interface PayByBank {
  readonly billingRequest: string
  readonly institution: string
  readonly authorisation: BankAuthorisation
}

export const bankAuthorisation = async (client: GoCardlessClient, description = "Order 42", withMandate = false): Promise<PayByBank> => {
  const request = await client.billingRequests.create({
    payment_request: { amount: "1250", currency: "GBP", description },
    // A first payment and a Bacs mandate: the bank reports the payer's account at authorisation.
    ...(withMandate ? { mandate_request: { currency: "GBP", scheme: "bacs" } } : {})
  } as never)
  const id = request.id ?? ""
  await collectPayerDetails(client, id)
  const institution = (await client.institutions.list({ country_code: "GB" } as never)).institutions[0]
  await client.billingRequests.selectInstitution(id, { institution: institution?.id ?? "", country_code: "GB" } as never)
  const authorisation = await client.bankAuthorisations.create({ links: { billing_request: id } } as never)
  return { billingRequest: id, institution: institution?.name ?? "", authorisation }
}

/** Moves the organisation's clock (the sandbox's advance). */
export const advance = async (server: TestServer, by: string | number): Promise<void> => {
  const response = await api(server.url, PAGES_TOKEN, "/sandbox/simulator/advance", { method: "POST", body: { by } })
  if (response.status !== 200) throw new Error(`advance answered ${response.status}: ${await response.text()}`)
}

/**
 * An outbound payment import of two payments to a payer's account, the creditor's payment account
 * funded to pay them, validated (its validation runs seconds after its creation).
 */
export const validatedImport = async (server: TestServer, client: GoCardlessClient): Promise<OutboundPaymentImport> => {
  const creditor = server.boot.creditor ?? ""
  // The payer's account, given through a billing request as payers give theirs.
  const { mandate } = await fulfilledMandateRequest(client)
  const account = (await client.mandates.find(mandate)).links?.customer_bank_account ?? ""
  const funded = await api(server.url, PAGES_TOKEN, "/sandbox/payment_accounts/fund", { method: "POST", body: { amount: 100_000, links: { creditor } } })
  if (funded.status !== 200) throw new Error(`fund answered ${funded.status}: ${await funded.text()}`)
  const created = await client.outboundPaymentImports.create({
    entry_items: [
      { scheme: "faster_payments", amount: 1500, recipient_bank_account_id: account, reference: "JAN PAY & CO" },
      { scheme: "faster_payments", amount: 2500, recipient_bank_account_id: account, reference: "FEB PAY" }
    ]
  } as never)
  await advance(server, 15)
  return created
}

/** The CSRF token of a page's form. */
export const hiddenToken = (page: string): string => /name="csrf_token" value="([^"]+)"/.exec(page)?.[1] ?? ""

/** A form post as a browser sends it, its redirect not followed. */
export const postForm = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields).toString() })
