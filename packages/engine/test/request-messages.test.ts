import fc from "fast-check"
import { Result, Schema, SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import { decodeInput, DESCRIPTION_MAX_LENGTH, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, STRING_MAX_LENGTH } from "@paykit/core"
import * as engine from "@paykit/engine"

/**
 * Every validation message of every request Schema the API decodes (bodies and list parameters)
 * reads as English about the field: no Schema identifier, no "Expected ...", no "Missing key".
 */

const requestSchemas = (): ReadonlyArray<readonly [string, Schema.Decoder<unknown>]> => {
  const bodies = Object.entries(engine.REQUEST_BODIES).flatMap(([resource, actions]) =>
    Object.entries(actions).map(([action, schema]): readonly [string, Schema.Decoder<unknown>] => [`${resource}.${action}`, schema]))
  const lists = Object.entries(engine).filter(([name, value]) => name.endsWith("Params") && Schema.isSchema(value))
    .map(([name, value]): readonly [string, Schema.Decoder<unknown>] => [name, value as Schema.Decoder<unknown>])
  return [...bodies, ...lists]
}

const WRONG_VALUES: ReadonlyArray<unknown> = [1, -1, 1.5, 0, "x", "", true, null, [], {}, ["x"], { a: 1 }]

/** Bad values for a field of `ast`: wrong types everywhere, and objects whose own fields are bad in turn. */
const badFor = (ast: SchemaAST.AST, depth: number): fc.Arbitrary<unknown> => {
  const wrong = fc.constantFrom(...WRONG_VALUES)
  const encoded = SchemaAST.toEncoded(ast)
  const members = SchemaAST.isUnion(encoded) ? encoded.types : [encoded]
  const objects = members.filter(SchemaAST.isObjects).filter((o) => o.propertySignatures.length > 0)
  if (depth === 0 || objects.length === 0) return wrong
  return fc.oneof(wrong, ...objects.map((o) => badObject(o, depth - 1)))
}

const badObject = (ast: SchemaAST.Objects, depth: number): fc.Arbitrary<unknown> =>
  fc.record(Object.fromEntries(ast.propertySignatures.map((p) => [String(p.name), badFor(p.type, depth)])), { requiredKeys: [] })

/** What a person should never read: a Schema's vocabulary or a type's identifier (`PositiveInteger`). */
const SCHEMA_VOCABULARY = /Expected|Missing key|<filter>|\||\b[A-Z][a-z]+[A-Z][A-Za-z]*\b/

describe("validation messages", () => {
  it("read as English about the field for every request Schema and bad input", () => {
    const schemas = requestSchemas()
    expect(schemas.length).toBeGreaterThan(40)
    for (const [name, schema] of schemas) {
      const decode = decodeInput(schema, "things")
      const encoded = SchemaAST.toEncoded(schema.ast)
      const inputs = SchemaAST.isObjects(encoded) ? badObject(encoded, 3) : badFor(encoded, 3)
      fc.assert(fc.property(fc.oneof(inputs, fc.anything()), (input) => {
        const r = decode(input)
        if (Result.isSuccess(r)) return
        for (const e of r.failure.errors) {
          expect(e.message, `${name}: ${e.field} ${e.message}`).not.toMatch(SCHEMA_VOCABULARY)
          expect(e.message.length, name).toBeGreaterThan(0)
        }
      }), { numRuns: 60 })
    }
  })

  it("say what was seen in the issue in words", () => {
    const messages = (schema: Schema.Decoder<unknown>, input: unknown) => {
      const r = decodeInput(schema, "x")(input)
      return Result.isFailure(r) ? r.failure.errors.map((e) => `${e.field} ${e.message}`) : []
    }
    const payment = engine.REQUEST_BODIES.payments.create
    expect(messages(payment, { amount: "abc", currency: "GBP", links: { mandate: "MD" } }).join("\n")).toMatch(/^amount must be a whole number/)
    expect(messages(payment, { amount: 100, currency: "GBP" })).toContain("links is required")
    expect(messages(engine.REQUEST_BODIES.outbound_payments.update, { metadata: 3 })).toEqual(["metadata must be an object or null"])
    expect(messages(engine.REQUEST_BODIES.subscriptions.create, { interval: "x" }).join("\n"), messages(engine.REQUEST_BODIES.subscriptions.create, { interval: "x" }).join(" / ")).toMatch(/^interval must be a whole number/m)
    expect(messages(engine.REQUEST_BODIES.billing_requests.create, { mandate_request: { scheme: "nope" } }).join("\n"))
      .toMatch(/mandate_request\.scheme must be one of [a-z_, ]*bacs[a-z_, ]*sepa_core/)
  })
})

describe("string lengths", () => {
  const fieldsRefused = (schema: Schema.Decoder<unknown>, input: unknown) => {
    const r = decodeInput(schema, "x")(input)
    return Result.isFailure(r) ? r.failure.errors.map((e) => `${e.field} ${e.message}`) : []
  }
  const B = engine.REQUEST_BODIES
  const cases: ReadonlyArray<readonly [string, Schema.Decoder<unknown>, (s: string) => unknown, string, number]> = [
    ["creditor name", B.creditors.create, (s) => ({ name: s }), "name", NAME_MAX_LENGTH],
    ["creditor name on update", B.creditors.update, (s) => ({ name: s }), "name", NAME_MAX_LENGTH],
    ["customer given_name", B.customers.create, (s) => ({ given_name: s }), "given_name", NAME_MAX_LENGTH],
    ["customer email", B.customers.create, (s) => ({ email: `${s.slice(2)}@x` }), "email", EMAIL_MAX_LENGTH],
    ["payment description", B.payments.create, (s) => ({ description: s }), "description", DESCRIPTION_MAX_LENGTH],
    ["any other string", B.customers.create, (s) => ({ city: s }), "city", STRING_MAX_LENGTH]
  ]
  it("accepts a field at its maximum and refuses it one character over, naming the field", () => {
    for (const [name, schema, body, field, max] of cases) {
      expect(fieldsRefused(schema, body("a".repeat(max))).filter((m) => m.startsWith(`${field} `)), name).toEqual([])
      expect(fieldsRefused(schema, body("a".repeat(max + 1))).filter((m) => m.startsWith(`${field} `)), name).toEqual([
        expect.stringMatching(new RegExp(`^${field} must be (an email address of )?at most ${max} characters$`))
      ])
    }
  })
})
