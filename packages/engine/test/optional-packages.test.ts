import { Effect } from "effect"
import { expect, it } from "vitest"
import { httpStatusOf, renderError } from "@paykit/core"
import { optionalPackages } from "../src/documents/optional-packages.ts"

// A specifier no app installs, held in a variable so the type checker does not resolve it.
const absent: string = "@paykit/no-such-optional-package"

it("a feature whose package is not installed fails with FeatureNotInstalled, answered 501 naming the package", async () => {
  const load = optionalPackages("Mandate PDFs", [absent], () => import(absent))
  const error = await Effect.runPromise(Effect.flip(load))
  expect(error._tag).toBe("FeatureNotInstalled")
  expect(httpStatusOf(error)).toBe(501)
  const body = renderError(error, { requestId: "req_1" })
  expect(body.error.type).toBe("gocardless")
  expect(body.error.errors[0]?.reason).toBe("feature_not_installed")
  expect(body.error.message).toContain(`npm install ${absent}`)
})

it("a failed load is tried again and a successful one is kept", async () => {
  let calls = 0
  const load = optionalPackages("Logos", ["sharp"], async () => {
    calls += 1
    if (calls === 1) throw new Error("not yet")
    return { loaded: calls }
  })
  expect((await Effect.runPromise(Effect.flip(load)))._tag).toBe("FeatureNotInstalled")
  expect(await Effect.runPromise(load)).toEqual({ loaded: 2 })
  expect(await Effect.runPromise(load)).toEqual({ loaded: 2 })
  expect(calls).toBe(2)
})
