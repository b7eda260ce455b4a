import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { REQUEST_BODIES, RESOURCE_DEFINITIONS } from "../src/index.ts"
import { defineRoom, dueWorkOf, requestBodiesOf } from "../src/registry/room.ts"
import { ROOMS } from "../src/rooms.ts"

describe("the room registry", () => {
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
})
