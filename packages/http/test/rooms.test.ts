import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { PAYKIT_ROOMS, PAYKIT_ROUTES, type RouteRoom } from "../src/index.ts"

/**
 * The route table's layout: one file per room under `src/routes/`, each holding every route of
 * the resources it names (reads and writes together), and the table made of exactly those rooms.
 * A resource whose routes were split over two files, a route file the table does not list, or a
 * file named after neither one of its resources nor an engine room (a folder of the engine's
 * `src/`), fails here.
 */

const ROUTES_DIR = new URL("../src/routes/", import.meta.url)
const HTTP_DOC = new URL("../../../docs/http.md", import.meta.url)
const ENGINE_ROOMS_DIR = new URL("../../engine/src/", import.meta.url)

/**
 * The engine's rooms (the folders of its `src/`): a route room not named after one of its
 * resources is named after the engine room its resources live in (`instalments` for instalment
 * schedules, `documents` for public keys and the encrypted reads).
 */
const ENGINE_ROOMS: ReadonlySet<string> = new Set(
  readdirSync(ENGINE_ROOMS_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
)

type Room = RouteRoom<unknown>

const isRoom = (value: unknown): value is Room =>
  typeof value === "object" && value !== null && "resources" in value && "declarations" in value && "routes" in value

/** Each file of `src/routes/` with the rooms it exports. */
const files = await Promise.all(
  readdirSync(ROUTES_DIR).filter((file) => file.endsWith(".ts")).map(async (file) => {
    const module: Record<string, unknown> = await import(new URL(file, ROUTES_DIR).href)
    return { name: file.slice(0, -".ts".length), rooms: Object.values(module).filter(isRoom) }
  })
)

/** The resource a path belongs to: its first segment (`/branding/logos` is the creditor's branding). */
const resourceOf = (path: string): string => path.split("/")[1] ?? ""

describe("the rooms of the route table", () => {
  it("are the files of src/routes, one room each, every one in the registry once", () => {
    expect(files.length).toBeGreaterThan(20)
    for (const file of files) expect(file.rooms, `${file.name}.ts exports one room`).toHaveLength(1)
    const rooms = files.flatMap((file) => file.rooms)
    expect(new Set<Room>(PAYKIT_ROOMS).size).toBe(PAYKIT_ROOMS.length)
    expect(new Set<Room>(PAYKIT_ROOMS)).toEqual(new Set(rooms))
    expect(PAYKIT_ROUTES).toEqual(PAYKIT_ROOMS.flatMap((room) => room.declarations))
  })

  it("hold every route of the resources they name, and only those", () => {
    for (const { name, rooms } of files) {
      for (const room of rooms) {
        const served = room.declarations.map(({ endpoint }) => resourceOf(endpoint.path))
        for (const [i, resource] of served.entries()) {
          expect(room.resources, `${name}.ts: ${room.declarations[i]?.endpoint.path}`).toContain(resource)
        }
        // A resource it names but does not serve would hide where that resource's routes went.
        expect(new Set(served), `${name}.ts serves each resource it names`).toEqual(new Set(room.resources))
      }
    }
  })

  it("name each resource in one room only", () => {
    const owners = new Map<string, Array<string>>()
    for (const { name, rooms } of files) {
      for (const resource of rooms.flatMap((room) => room.resources)) owners.set(resource, [...(owners.get(resource) ?? []), name])
    }
    const shared = [...owners].filter(([, names]) => names.length > 1)
    expect(shared).toEqual([])
  })

  it("are named after one of their resources, or after the engine's room they come from", () => {
    for (const { name, rooms } of files) {
      const resources = rooms.flatMap((room) => room.resources)
      const named = resources.includes(name.replaceAll("-", "_")) || ENGINE_ROOMS.has(name)
      expect(named, `${name}.ts names one of ${resources.join(", ")}`).toBe(true)
    }
  })

  it("are the rooms of the table of what is served in docs/http.md", () => {
    const documented = readFileSync(HTTP_DOC, "utf8").split("\n").flatMap((line) => {
      const room = /^\| `([a-z-]+)\.ts` \|/.exec(line)?.[1]
      return room === undefined ? [] : [room]
    })
    expect(new Set(documented)).toEqual(new Set(files.map((file) => file.name)))
  })
})
