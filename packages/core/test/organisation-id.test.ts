import { Effect, Exit, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { IdGenerator, newOrganisationId, OrganisationId } from "@paykit/core"

describe("OrganisationId", () => {
  it("takes an organisation id as newId makes it, and refuses garbage with a clear TypeError", () => {
    expect(OrganisationId("OR0000000000AA")).toBe("OR0000000000AA")
    for (const bad of ["OR1", "OR_a", "", "CU0000000000AA", "OR0000000000Aa", "OR0000000000AI", "OR0000000000AAA"]) {
      expect(() => OrganisationId(bad)).toThrow(TypeError)
      expect(() => OrganisationId(bad)).toThrow(`not an organisation id: ${JSON.stringify(bad)}`)
    }
  })

  it("decodes untrusted input to a typed ValidationFailed, and is a Schema for Effect users", async () => {
    const failed = await Effect.runPromise(Effect.flip(OrganisationId.decode("OR1")))
    expect(failed._tag).toBe("ValidationFailed")
    expect(failed.errors[0]?.message).toContain("must be an identifier beginning OR")
    expect(await Effect.runPromise(OrganisationId.decode("OR0000000000AA"))).toBe("OR0000000000AA")
    expect(Exit.isFailure(Schema.decodeUnknownExit(OrganisationId.schema)(42))).toBe(true)
    expect(OrganisationId.is("OR0000000000AA")).toBe(true)
    expect(OrganisationId.is("OR1")).toBe(false)
  })

  it("newOrganisationId makes well-formed ids", async () => {
    const id = await Effect.runPromise(Effect.provide(newOrganisationId, IdGenerator.layerSeeded(1)))
    expect(OrganisationId.is(id)).toBe(true)
  })
})
