import fc from "fast-check"
import { Effect, Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { fieldError, PAGE_SIZE_MAX, validationFailed } from "@paykit/core"
import { PaymentListParams } from "@paykit/engine"
import { APP_FEE_PATHS, appFeesIn, asQueryErrors, consume, queryShapeOf, OUTBOUND_PAYMENT_OTHER, OUTBOUND_PAYMENT_WRITES, PAYKIT_ROUTES, RATE_LIMIT_WINDOW_MS, routeOf, toParams, valuesOf, type Window } from "../src/index.ts"
import { hashToken } from "../src/access-tokens.ts"

describe("rate limit windows", () => {
  it("allows exactly `limit` requests in one window, whatever their times inside it", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 50 }), fc.array(fc.integer({ min: 0, max: RATE_LIMIT_WINDOW_MS - 1 }), { maxLength: 120 }), fc.nat(1_000_000), (limit, offsets, w) => {
      const start = w * RATE_LIMIT_WINDOW_MS
      let window: Window | undefined
      let allowed = 0
      for (const t of [...offsets].sort((a, b) => a - b)) {
        const d = consume(window, start + t, limit)
        window = d.window
        if (d.allowed) allowed++
        expect(d.remaining).toBe(limit - window.count)
        expect(d.resetAtMillis).toBe(start + RATE_LIMIT_WINDOW_MS)
      }
      expect(allowed).toBe(Math.min(limit, offsets.length))
    }))
  })

  it("a new window starts afresh", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 }), fc.nat(1000), (limit, w) => {
      const full: Window = { start: w * RATE_LIMIT_WINDOW_MS, count: limit }
      expect(consume(full, full.start + 1, limit).allowed).toBe(false)
      expect(consume(full, full.start + RATE_LIMIT_WINDOW_MS, limit).allowed).toBe(true)
    }))
  })

  it("groups: POSTs under /outbound_payments share the write group, other methods the other group", () => {
    const routes = PAYKIT_ROUTES.map((declaration) => routeOf(declaration, () => Effect.die("not called")))
    const groupOf = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path)?.rateLimit
    expect(groupOf("POST", "/outbound_payments")?.limitPerMinute).toBe(300)
    expect(groupOf("POST", "/outbound_payments/:id/actions/approve")?.limitPerMinute).toBe(300)
    expect(groupOf("GET", "/outbound_payments/:id")?.limitPerMinute).toBe(500)
    expect(groupOf("POST", "/creditors")).toBeUndefined()
    for (const route of routes) {
      const outbound = route.path === "/outbound_payments" || route.path.startsWith("/outbound_payments/")
      expect(route.rateLimit).toBe(outbound ? route.method === "POST" ? OUTBOUND_PAYMENT_WRITES : OUTBOUND_PAYMENT_OTHER : undefined)
    }
  })
})

describe("list parameters: the wire form mapped onto the engine's Schemas", () => {
  const shape = queryShapeOf(PaymentListParams)
  const decode = Schema.decodeUnknownResult(PaymentListParams)

  it("reads the wire form from the engine's Schema: arrays, objects, single values", () => {
    expect(shape.lists).toContain("status")
    expect(shape.nested).toContainEqual(["created_at", ["gt", "gte", "lt", "lte"]])
    expect(shape.singles).toEqual(expect.arrayContaining(["limit", "before", "after", "mandate", "currency"]))
  })

  it("limit: absent stays absent (the engine applies its default), accepted from 1 to the maximum", () => {
    expect(toParams(shape, {})).toEqual({})
    fc.assert(fc.property(fc.integer({ min: -10, max: PAGE_SIZE_MAX * 3 }), (n) => {
      const r = decode(toParams(shape, { limit: String(n) }))
      expect(Result.isSuccess(r)).toBe(n >= 1 && n <= PAGE_SIZE_MAX)
    }))
  })

  it("array values: comma-separated and repeated forms give the same parameters", () => {
    const word = fc.stringMatching(/^[a-z_]{1,10}$/)
    fc.assert(fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), (values) => {
      expect(toParams(shape, { status: values.join(",") })).toEqual({ status: values })
      expect(toParams(shape, { status: values })).toEqual({ status: values })
      expect(valuesOf({ status: values.join(",") }, "status")).toEqual(values)
    }))
  })

  it("created_at takes only the operators; a bare value reaches the engine and is refused", () => {
    expect(toParams(shape, { "created_at[gte]": "2026-11-21T00:00:00.000Z" })).toEqual({ created_at: { gte: "2026-11-21T00:00:00.000Z" } })
    expect(Result.isFailure(decode(toParams(shape, { created_at: "2026-11-21T00:00:00.000Z" })))).toBe(true)
    expect(Result.isFailure(decode(toParams(shape, { "created_at[gt]": "yesterday" })))).toBe(true)
  })

  it("engine field errors are renamed to the query parameter they came from", () => {
    const renamed = asQueryErrors(validationFailed([
      fieldError("payments", ["created_at", "gte"], "bad"),
      fieldError("payments", ["status", 1], "bad"),
      fieldError("payments", ["limit"], "bad")
    ]))
    expect(renamed.errors.map((e) => [e.field, e.request_pointer])).toEqual([
      ["created_at[gte]", "/created_at[gte]"],
      ["status", "/status"],
      ["limit", "/limit"]
    ])
  })
})

describe("hashes", () => {
  it("a token is stored as its SHA-256 (known answer) and distinct tokens hash apart", () => {
    expect(hashToken("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => {
      expect(hashToken(a) === hashToken(b)).toBe(a === b)
    }))
  })
})

describe("app fees from callers that are not apps", () => {
  const fee = fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer({ min: 0, max: 10_000 }), fc.string())
  it("a path is reported exactly when the body carries a value other than null there", () => {
    fc.assert(fc.property(fee, fee, fee, fc.dictionary(fc.string(), fc.jsonValue()), (top, payment, subscription, rest) => {
      const body: Record<string, unknown> = { ...rest }
      const set = (target: Record<string, unknown>, value: unknown) => {
        if (value !== undefined) target["app_fee"] = value
      }
      delete body["app_fee"]
      body["payment_request"] = {}
      body["subscription_request"] = {}
      set(body, top)
      set(body["payment_request"] as Record<string, unknown>, payment)
      set(body["subscription_request"] as Record<string, unknown>, subscription)
      const given = (v: unknown) => v !== undefined && v !== null
      expect(appFeesIn(body, APP_FEE_PATHS.top)).toEqual(given(top) ? [["app_fee"]] : [])
      expect(appFeesIn(body, APP_FEE_PATHS.billingRequest)).toEqual([
        ...(given(payment) ? [["payment_request", "app_fee"]] : []),
        ...(given(subscription) ? [["subscription_request", "app_fee"]] : [])
      ])
    }))
  })

  it("a body that is not an object, or whose parent is not an object, carries no fee", () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.integer())), (value) => {
      expect(appFeesIn(value, APP_FEE_PATHS.top)).toEqual([])
      expect(appFeesIn({ payment_request: value }, APP_FEE_PATHS.billingRequest)).toEqual([])
    }))
  })
})
