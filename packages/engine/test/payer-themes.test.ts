import type { OrganisationId } from "@paykit/core"
import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { PAYER_THEMES } from "@paykit/validation"
import { Creditors, decodeCommand, PayerThemeCreateRequest, PayerThemeRepository, PayerThemes } from "@paykit/engine"
import { ORG, OTHER_ORG, runEngine } from "./fixtures.ts"

const COLOURS = ["header_background_colour", "link_text_colour", "button_background_colour", "content_box_border_colour"] as const
type Colours = Partial<Record<(typeof COLOURS)[number], string>>

const hex = fc.stringMatching(/^#[0-9a-f]{6}$/)
const colours: fc.Arbitrary<Colours> = fc.record(
  { header_background_colour: hex, link_text_colour: hex, button_background_colour: hex, content_box_border_colour: hex },
  { requiredKeys: [] }
)

const creditor = (organisation: OrganisationId, name: string) =>
  Effect.flatMap(Creditors, (c) => c.create(organisation, { name, country_code: "GB", creditor_type: "company" }))

const pointersOf = (e: unknown) =>
  typeof e === "object" && e !== null && "errors" in e && Array.isArray(e.errors)
    ? e.errors.map((x: { readonly request_pointer: string }) => x.request_pointer)
    : [String(e)]

describe("PayerThemes.upsert: one theme per creditor, created or updated", () => {
  it("after any sequence of upserts a creditor has one theme, each colour the last one given (null if never)", async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), colours), { minLength: 1, maxLength: 8 }), (steps) =>
      runEngine(Effect.gen(function*() {
        const themes = yield* PayerThemes
        const first = yield* creditor(ORG, "Acme Gym")
        const second = yield* creditor(ORG, "Acme Pool")
        const model = new Map<string, Record<string, string | null>>()
        const ids = new Map<string, string>()
        for (const [toFirst, given] of steps) {
          const target = toFirst ? first.id : second.id
          const theme = yield* themes.upsert(ORG, { ...given, links: { creditor: target } })
          const before = model.get(target) ?? Object.fromEntries(COLOURS.map((c) => [c, null]))
          model.set(target, { ...before, ...given })
          // The id is the creditor's theme's, the same on every later upsert.
          expect(theme.id).toBe(ids.get(target) ?? theme.id)
          ids.set(target, theme.id)
          expect(theme.id.startsWith("PTH")).toBe(true)
        }
        const stored = yield* (yield* PayerThemeRepository).scan(ORG, {})
        expect(stored.length).toBe(model.size)
        for (const row of stored) {
          expect(Object.fromEntries(COLOURS.map((c) => [c, row.resource[c]]))).toEqual(model.get(row.resource.links.creditor))
          expect(yield* themes.forCreditor(ORG, row.resource.links.creditor)).toEqual(row.resource)
        }
      }))
    ), { numRuns: 25 })
  })

  it("takes the organisation's only creditor when none is named, and refuses to guess among several", async () => {
    const result = await runEngine(Effect.gen(function*() {
      const themes = yield* PayerThemes
      const only = yield* creditor(ORG, "Acme Gym")
      const implied = yield* themes.upsert(ORG, { link_text_colour: "#123" })
      const nulled = yield* themes.upsert(ORG, { button_background_colour: "#abcdef", links: { creditor: null } })
      yield* creditor(ORG, "Acme Pool")
      const ambiguous = yield* Effect.flip(themes.upsert(ORG, { link_text_colour: "#456" }))
      return { creditor: implied.links.creditor === only.id, sameTheme: nulled.id === implied.id, ambiguous: pointersOf(ambiguous) }
    }))
    expect(result).toEqual({ creditor: true, sameTheme: true, ambiguous: ["/payer_themes/links/creditor"] })
  })

  it("refuses a colour that is not hex and a creditor of another organisation, storing nothing", async () => {
    const result = await runEngine(Effect.gen(function*() {
      const themes = yield* PayerThemes
      const mine = yield* creditor(ORG, "Acme Gym")
      const theirs = yield* creditor(OTHER_ORG, "Other Gym")
      // A colour is checked at the edge, by the body's Schema; the creditor link by the use case.
      const upsertBody = (body: unknown) => Effect.flatMap(decodeCommand(PayerThemeCreateRequest, PAYER_THEMES)(body), (c) => themes.upsert(ORG, c))
      const badColour = yield* Effect.flip(upsertBody({ header_background_colour: "red", links: { creditor: mine.id } }))
      const foreign = yield* Effect.flip(upsertBody({ header_background_colour: "#fff", links: { creditor: theirs.id } }))
      const stored = yield* (yield* PayerThemeRepository).scan(ORG, {})
      return { badColour: pointersOf(badColour), foreign: pointersOf(foreign), stored: stored.length, mine: yield* themes.forCreditor(ORG, mine.id) }
    }))
    expect(result).toEqual({
      badColour: ["/payer_themes/header_background_colour"],
      foreign: ["/payer_themes/links/creditor"],
      stored: 0,
      mine: null
    })
  })
})
