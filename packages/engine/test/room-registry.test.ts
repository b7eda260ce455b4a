import { Context, Effect, Layer, Schema } from "effect"
import { readdirSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { REQUEST_BODIES, RESOURCE_DEFINITIONS } from "../src/index.ts"
import { defineRoom, dueWorkOf, portsOf, requestBodiesOf, servicesOf } from "../src/registry/room.ts"
import { ROOMS } from "../src/rooms.ts"

const SRC = new URL("../src/", import.meta.url)

/** The room module each folder of `src` declares in its `room.ts`, if it has one. */
const declared = await Promise.all(
  readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "registry" && readdirSync(new URL(`${entry.name}/`, SRC)).includes("room.ts"))
    .map(async (entry) => {
      const module: Record<string, unknown> = await import(new URL(`${entry.name}/room.ts`, SRC).href)
      return { folder: entry.name, rooms: Object.values(module) }
    })
)

describe("the room registry", () => {
  it("lists every room module once", () => {
    const listed = new Set<unknown>(ROOMS)
    expect(listed.size).toBe(ROOMS.length)
    expect(declared.filter(({ rooms }) => !rooms.some((room) => listed.has(room))).map(({ folder }) => folder)).toEqual([])
    expect(declared).toHaveLength(ROOMS.length)
  })

  it("stores each resource once", () => {
    const names = RESOURCE_DEFINITIONS.map((d) => d.name)
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([])
  })

  it("takes every room's request bodies, and refuses two rooms declaring one resource's", () => {
    expect(Object.keys(REQUEST_BODIES)).toEqual(ROOMS.flatMap((room) => "requestBodies" in room ? Object.keys(room.requestBodies) : []))
    const a = defineRoom({ requestBodies: { things: { create: Schema.String } } })
    const b = defineRoom({ requestBodies: { things: { update: Schema.String } } })
    expect(() => requestBodiesOf([a, b])).toThrow("two rooms declare the request bodies of things")
  })

  it("gathers the rooms' daily jobs in the rooms' order", () => {
    const job = (name: string) => ({ name, order: 1, deadline: false, run: () => Effect.void })
    const rooms = [defineRoom({ dueWork: Effect.succeed([job("a")]) }), defineRoom({}), defineRoom({ dueWork: Effect.succeed([job("b"), job("c")]) })]
    expect(Effect.runSync(dueWorkOf(rooms)).map((j) => j.name)).toEqual(["a", "b", "c"])
  })

  it("builds each room's services on the rooms' below it, and the ports of the higher rooms first", () => {
    class Low extends Context.Service<Low, { readonly name: string }>()("test/Low") {}
    class High extends Context.Service<High, { readonly name: string }>()("test/High") {}
    const low = Layer.succeed(Low, Low.of({ name: "low" }))
    const high = Layer.effect(High, Effect.map(Low, (l) => High.of({ name: `high on ${l.name}` })))
    const built = (layer: Layer.Layer<Low | High>) => Effect.runSync(Effect.provide(Effect.map(High, (h) => h.name), layer))
    expect(built(servicesOf([defineRoom({ services: low }), defineRoom({}), defineRoom({ services: high })]))).toBe("high on low")
    // A port implemented in a higher room may use one implemented higher still: listed lowest first, built highest first.
    expect(built(portsOf([defineRoom({ ports: Layer.effect(High, Effect.map(Low, (l) => High.of({ name: `high on ${l.name}` }))) }), defineRoom({ ports: low })])))
      .toBe("high on low")
  })
})
