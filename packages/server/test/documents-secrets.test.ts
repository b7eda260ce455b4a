import { constants, createDecipheriv, generateKeyPair, generateKeyPairSync, type KeyObject, privateDecrypt } from "node:crypto"
import { promisify } from "node:util"
import { Effect } from "effect"
import type { GoCardlessClient } from "gocardless-nodejs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { issueAccessToken } from "@paykit/http"
import { Organisations } from "../src/index.ts"
import { api, fulfilledMandateRequest, json, localClient, run, SERVER_DATABASES, type TestServer } from "./harness.ts"

/**
 * Issue 21's secrets through the official client over HTTP: public keys (paykit's extension), a
 * customer bank account's full details as a flattened JWE, and a transferred mandate's new details.
 * Both answers are opened here with plain node:crypto, not the library that made them.
 */

interface ApiFailure {
  readonly statusCode: number
  readonly reason: string
}

const refusal = async (call: Promise<unknown>): Promise<ApiFailure> => {
  const outcome = await call.then(() => undefined, (error: unknown) => error)
  if (outcome === undefined) throw new Error("expected the call to fail")
  const e = outcome as { readonly response?: { readonly statusCode?: number }; readonly errors?: ReadonlyArray<{ readonly reason?: string }> }
  return { statusCode: e.response?.statusCode ?? 0, reason: e.errors?.[0]?.reason ?? "" }
}

const rsaPair = (bits: number) => generateKeyPairSync("rsa", { modulusLength: bits })
const pem = (key: KeyObject) => key.export({ type: "spki", format: "pem" }).toString()

const fromB64url = (s: string) => Buffer.from(s, "base64url")

/** RFC 7516 by hand: the CEK under RSA-OAEP (SHA-256), then AES-256-GCM with the protected header's ASCII as AAD. */
const openJwe = (jwe: Record<string, string | undefined>, privateKey: KeyObject) => {
  const cek = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, fromB64url(jwe["encrypted_key"] ?? ""))
  const decipher = createDecipheriv("aes-256-gcm", cek, fromB64url(jwe["iv"] ?? ""))
  decipher.setAAD(Buffer.from(jwe["protected"] ?? "", "ascii"))
  decipher.setAuthTag(fromB64url(jwe["tag"] ?? ""))
  const plain = Buffer.concat([decipher.update(fromB64url(jwe["ciphertext"] ?? "")), decipher.final()])
  return JSON.parse(plain.toString("utf8")) as Record<string, unknown>
}

/** paykit's transferred mandate format: the AES key under RSA-OAEP (SHA-256); the details as IV (12) | ciphertext | tag (16). */
const openTransfer = (answer: { encrypted_decryption_key?: string; encrypted_customer_bank_details?: string }, privateKey: KeyObject) => {
  const key = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, Buffer.from(answer.encrypted_decryption_key ?? "", "base64"))
  const bytes = Buffer.from(answer.encrypted_customer_bank_details ?? "", "base64")
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12))
  decipher.setAuthTag(bytes.subarray(bytes.length - 16))
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString("utf8")) as Record<string, unknown>
}

describe.each(SERVER_DATABASES)("public keys and encrypted bank details on %s", (_database, start) => {
  let server: TestServer
  let client: GoCardlessClient
  let token: string
  const pair = rsaPair(2048)
  /** Made off the event loop: generating it blocks for seconds, long enough for the server to drop an idle connection the client then reuses. */
  let large: KeyObject

  const createKey = (publicKey: string) => api(server.url, token, "/public_keys", { method: "POST", body: { public_keys: { public_key: publicKey } } })
  const keyId = async (publicKey: string) => String(((await json(await createKey(publicKey)))["public_keys"] as Record<string, unknown>)["id"])

  beforeAll(async () => {
    const made = promisify(generateKeyPair)("rsa", { modulusLength: 8192 })
    server = await start()
    large = (await made).publicKey
    token = server.boot.accessToken ?? ""
    client = localClient(token, server.url)
  }, 120_000)
  afterAll(async () => server.close())

  it("takes an RSA key of 2048 bits or more as PEM or JWK, and refuses any other key", async () => {
    const created = await createKey(pem(pair.publicKey))
    expect(created.status).toBe(201)
    const key = (await json(created))["public_keys"] as Record<string, unknown>
    expect(key).toMatchObject({ enabled: true, key_size: 2048, public_key: pem(pair.publicKey) })
    expect(String(key["id"])).toMatch(/^PK[0-9A-Z]{12}$/)

    const jwk = JSON.stringify(rsaPair(3072).publicKey.export({ format: "jwk" }))
    expect(((await json(await createKey(jwk)))["public_keys"] as Record<string, unknown>)["key_size"]).toBe(3072)

    // Longer than the default string limit: its field has its own.
    expect(((await json(await createKey(pem(large))))["public_keys"] as Record<string, unknown>)["key_size"]).toBe(8192)

    const small = await createKey(pem(rsaPair(1024).publicKey))
    expect(small.status).toBe(422)
    expect(JSON.stringify(await json(small))).toContain("at least 2048 bits")
    expect((await createKey(pem(generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey))).status).toBe(422)
    expect((await createKey("not a key")).status).toBe(422)
    // A private key is not a public one, whatever it holds.
    const priv = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString()
    const refusedPrivate = await createKey(priv)
    expect(refusedPrivate.status).toBe(422)
    expect(JSON.stringify(await json(refusedPrivate))).toContain("not a private one")
    expect((await createKey(JSON.stringify(pair.privateKey.export({ format: "jwk" })))).status).toBe(422)
  })

  it("lists, reads and disables keys", async () => {
    const id = await keyId(pem(rsaPair(2048).publicKey))
    expect((await json(await api(server.url, token, `/public_keys/${id}`)))["public_keys"]).toMatchObject({ id, enabled: true })
    const listed = (await json(await api(server.url, token, "/public_keys?enabled=true")))["public_keys"] as ReadonlyArray<Record<string, unknown>>
    expect(listed.map((k) => k["id"])).toContain(id)
    const disabled = await api(server.url, token, `/public_keys/${id}/actions/disable`, { method: "POST" })
    expect(((await json(disabled))["public_keys"] as Record<string, unknown>)["enabled"]).toBe(false)
    expect((await api(server.url, token, `/public_keys/${id}/actions/disable`, { method: "POST" })).status).toBe(422)
  })

  it("answers an account's full details as a JWE that node:crypto opens", async () => {
    const kid = await keyId(pem(pair.publicKey))
    const customer = await client.customers.create({ email: "grace@example.com", given_name: "Grace", family_name: "Hopper", country_code: "GB" } as never)
    const account = await client.customerBankAccounts.create({
      account_holder_name: "Grace Hopper", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id ?? "" }
    } as never)
    const jwe = await client.bankAccountDetails.find(account.id ?? "", { "Svc-Key-Id": kid })
    const header = JSON.parse(fromB64url(jwe.protected ?? "").toString("utf8")) as Record<string, unknown>
    expect(header).toEqual({ alg: "RSA-OAEP-256", enc: "A256GCM", kid })
    expect(openJwe(jwe as unknown as Record<string, string | undefined>, pair.privateKey)).toMatchObject({
      account_holder_name: "Grace Hopper", account_number: "55779911", branch_code: "200000", country_code: "GB", currency: "GBP", iban: null
    })
    // The account resource itself still shows only the ending.
    expect(JSON.stringify(await client.customerBankAccounts.find(account.id ?? ""))).not.toContain("55779911")

    expect(await refusal(client.bankAccountDetails.find(account.id ?? ""))).toEqual({ statusCode: 400, reason: "missing_svc_key_id" })
    expect(await refusal(client.bankAccountDetails.find(account.id ?? "", { "Svc-Key-Id": "PK000000000000" }))).toEqual({ statusCode: 400, reason: "invalid_svc_key_id" })
    await api(server.url, token, `/public_keys/${kid}/actions/disable`, { method: "POST" })
    expect(await refusal(client.bankAccountDetails.find(account.id ?? "", { "Svc-Key-Id": kid }))).toEqual({ statusCode: 400, reason: "invalid_svc_key_id" })
    const other = await keyId(pem(pair.publicKey))
    expect((await refusal(client.bankAccountDetails.find("BA000000000000", { "Svc-Key-Id": other }))).statusCode).toBe(404)
  })

  it("answers a mandate moved by a current account switch with its new details under a key node:crypto opens", async () => {
    const kid = await keyId(pem(pair.publicKey))
    const { mandate } = await fulfilledMandateRequest(client)
    const before = await client.mandates.find(mandate)
    expect(await refusal(client.transferredMandates.transferredMandates(mandate, { "Svc-Key-Id": kid }))).toEqual({ statusCode: 422, reason: "mandate_not_transferred" })

    await client.scenarioSimulators.run("mandate_transferred", { links: { resource: mandate } })
    const after = await client.mandates.find(mandate)
    const moved = after.links?.customer_bank_account ?? ""
    expect(moved).not.toBe(before.links?.customer_bank_account)
    const transferred = (await client.events.list({ mandate, action: "transferred" } as never)).events[0]
    expect(transferred?.links).toMatchObject({ mandate, new_customer_bank_account: moved, previous_customer_bank_account: before.links?.customer_bank_account })

    const answer = await client.transferredMandates.transferredMandates(mandate, { "Svc-Key-Id": kid })
    expect(answer).toMatchObject({ public_key_id: kid, links: { customer_bank_account: moved, mandate } })
    const details = openTransfer(answer, pair.privateKey)
    expect(details).toMatchObject({ account_holder_name: "Ada Lovelace", iban: null, swift_branch_code: "200000", swift_bank_code: null })
    expect(String(details["swift_account_number"])).toMatch(/^\d{8}$/)
    expect(details["swift_account_number"]).not.toBe("55779911")
    // The number is the new account's: its ending is the one the account shows.
    expect((await client.customerBankAccounts.find(moved)).account_number_ending).toBe(String(details["swift_account_number"]).slice(-2))
    // Without the header, the organisation's newest enabled key.
    const newest = await keyId(pem(pair.publicKey))
    expect((await client.transferredMandates.transferredMandates(mandate)).public_key_id).toBe(newest)
  })

  /** A customer with a UK bank account, through the client. */
  const payerAccount = async (email: string) => {
    const customer = await client.customers.create({ email, given_name: "Kay", family_name: "Jones", country_code: "GB" } as never)
    const account = await client.customerBankAccounts.create({
      account_holder_name: "Kay Jones", account_number: "55779911", branch_code: "200000", country_code: "GB", links: { customer: customer.id ?? "" }
    } as never)
    return { customer: customer.id ?? "", account: account.id ?? "" }
  }

  it("keeps each organisation's keys and accounts to itself", async () => {
    const kid = await keyId(pem(pair.publicKey))
    const { account } = await payerAccount("kay@example.com")
    const other = `OR0000D0C${String(Math.floor(Math.random() * 100_000)).padStart(5, "0")}`
    await run(server, Effect.gen(function*() {
      yield* (yield* Organisations).insert({ id: other, name: "Other", environment: "sandbox", origin: "operator" })
    }))
    const otherToken = await run(server, issueAccessToken({ id: `AT_${other}`, organisation: other, scope: "read_write" }))
    const otherClient = localClient(otherToken, server.url)
    // The other organisation's own key names nothing here, and this one's key nothing there.
    const created = await api(server.url, otherToken, "/public_keys", { method: "POST", body: { public_keys: { public_key: pem(pair.publicKey) } } })
    const otherKey = String(((await json(created))["public_keys"] as Record<string, unknown>)["id"])
    expect(await refusal(client.bankAccountDetails.find(account, { "Svc-Key-Id": otherKey }))).toEqual({ statusCode: 400, reason: "invalid_svc_key_id" })
    expect((await refusal(otherClient.bankAccountDetails.find(account, { "Svc-Key-Id": otherKey }))).statusCode).toBe(404)
    expect((await refusal(otherClient.bankAccountDetails.find(account, { "Svc-Key-Id": kid }))).statusCode).toBe(404)
  })

  it("erases an account's full details with its customer", async () => {
    const kid = await keyId(pem(pair.publicKey))
    const { customer, account } = await payerAccount("erased@example.com")
    await client.bankAccountDetails.find(account, { "Svc-Key-Id": kid })
    await client.customers.remove(customer)
    expect(await refusal(client.bankAccountDetails.find(account, { "Svc-Key-Id": kid }))).toEqual({ statusCode: 422, reason: "bank_account_details_unavailable" })
  })
})
