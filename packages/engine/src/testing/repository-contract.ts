import { Effect, Exit, type Layer, Schema } from "effect"
import { ID_PREFIXES, IdGenerator, lowestIdAt, timestampFromMillis } from "@paykit/core"
import { refundMachine, RefundStatus } from "@paykit/machines"
import { EventLog } from "../kernel/ports/event-log.ts"
import { eq, type Filter, oneOf, pageOf } from "../kernel/ports/list-query.ts"
import { RepositoryBackend, Transactor } from "../kernel/ports/repository.ts"
import { type Customer, customers } from "../customers/domain/customers.ts"
import { defineResource } from "../kernel/definition.ts"
import { applyCreation, applyTransition } from "../kernel/support.ts"
import {
  check, CONTRACT_ORG, CONTRACT_OTHER_ORG, type ContractCase, ContractViolation, failedWith, SAMPLE_BASE_MS, sampleEvent
} from "./contract-support.ts"

export { type ContractCase, ContractViolation } from "./contract-support.ts"

/**
 * The contract every storage adapter must honour, as plain Effects so any test runner can run
 * them: `for (const c of RepositoryContract.cases) it(c.name, () => RepositoryContract.run(c, layer))`.
 * Each case must get a fresh, empty store from `layer`.
 */

type Storage = RepositoryBackend | Transactor | EventLog

/** A case of the repository contract: `ContractCase` over the engine's storage without due work. */
export type RepositoryContractCase = ContractCase<Storage>

const sameIds = (actual: ReadonlyArray<{ readonly id: string }>, expected: ReadonlyArray<{ readonly id: string }>, what: string) =>
  check(
    JSON.stringify(actual.map((r) => r.id)) === JSON.stringify(expected.map((r) => r.id)),
    `${what}: got [${actual.map((r) => r.id).join(", ")}], expected [${expected.map((r) => r.id).join(", ")}]`
  )

/** Resources in id order, for answers in no particular order. */
const byId = <A extends { readonly id: string }>(resources: ReadonlyArray<A>): ReadonlyArray<A> =>
  [...resources].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

const BASE_MS = SAMPLE_BASE_MS

/** A customer created `n` seconds after the base instant; its id sorts by `n`. */
export const sampleCustomer = (n: number, overrides: Partial<Customer> = {}): Customer => {
  const ms = BASE_MS + n * 1000
  return {
    id: lowestIdAt(ID_PREFIXES.customer, ms),
    created_at: timestampFromMillis(ms),
    email: `payer${n}@example.com`,
    given_name: `Given${n}`,
    family_name: "Payer",
    company_name: null,
    address_line1: null,
    address_line2: null,
    address_line3: null,
    city: null,
    region: null,
    postal_code: null,
    country_code: "GB",
    language: "en",
    phone_number: null,
    swedish_identity_number: null,
    danish_identity_number: null,
    metadata: {},
    ...overrides
  }
}

const repo = Effect.map(RepositoryBackend, (b: RepositoryBackend["Service"]) => b.repository(customers))

const ORG = CONTRACT_ORG
const OTHER = CONTRACT_OTHER_ORG

const storageCases: ReadonlyArray<RepositoryContractCase> = [
  {
    name: "insert stores version 1 and get returns it; an unknown id is NotFound",
    run: Effect.gen(function*() {
      const r = yield* repo
      const c = sampleCustomer(1)
      const inserted = yield* r.insert(ORG, c)
      yield* check(inserted.version === 1, "insert returns version 1")
      const got = yield* r.get(ORG, c.id)
      yield* check(got.version === 1 && JSON.stringify(got.resource) === JSON.stringify(c), "get returns the stored resource")
      const missing = yield* Effect.exit(r.get(ORG, sampleCustomer(2).id))
      yield* check(Exit.isFailure(missing) && JSON.stringify(missing).includes("NotFound"), "unknown id fails NotFound")
    })
  },
  {
    name: "getMany answers the resources of the ids that exist, in and out of a transaction, and sees the transaction's own writes",
    run: Effect.gen(function*() {
      const r = yield* repo
      const tx = yield* Transactor
      yield* r.insertAll(ORG, [sampleCustomer(1), sampleCustomer(2)])
      const ids = [1, 2, 3].map((n) => sampleCustomer(n).id)
      yield* sameIds(byId((yield* r.getMany(ORG, ids)).map((v) => v.resource)), byId([1, 2].map((n) => sampleCustomer(n))), "the existing ones, outside")
      yield* check((yield* r.getMany(ORG, [])).length === 0, "no ids, none")
      yield* check((yield* r.getMany("OR0000000000ZZ", ids)).length === 0, "another organisation's ids are not its own")
      yield* tx.transaction(Effect.gen(function*() {
        yield* sameIds(byId((yield* r.getMany(ORG, ids)).map((v) => v.resource)), byId([1, 2].map((n) => sampleCustomer(n))), "the existing ones, inside")
        const missing = yield* Effect.exit(r.get(ORG, sampleCustomer(3).id))
        yield* check(Exit.isFailure(missing) && JSON.stringify(missing).includes("NotFound"), "one found absent stays NotFound")
        yield* r.insert(ORG, sampleCustomer(3))
        const updated = yield* r.update(ORG, { ...sampleCustomer(1), email: "new@example.com" }, 1)
        const again = yield* r.getMany(ORG, ids)
        yield* sameIds(byId(again.map((v) => v.resource)), byId([1, 2, 3].map((n) => sampleCustomer(n))), "the transaction's insert is found")
        yield* check(again.some((v) => v.version === updated.version && v.resource.email === "new@example.com"), "and its update")
        yield* check((yield* r.get(ORG, sampleCustomer(3).id)).version === 1, "get finds the insert too")
      }))
    })
  },
  {
    name: "an insert of an existing id fails DuplicateId and keeps the original",
    run: Effect.gen(function*() {
      const r = yield* repo
      const c = sampleCustomer(1)
      yield* r.insert(ORG, c)
      const again = yield* Effect.exit(r.insert(ORG, { ...c, email: "other@example.com" }))
      yield* check(failedWith(again, "DuplicateId"), "a duplicate insert fails with a typed DuplicateId, not a defect")
      const got = yield* r.get(ORG, c.id)
      yield* check(got.resource.email === c.email, "the original survives")
    })
  },
  {
    name: "insertAll stores a batch in one write, in and out of a transaction; a batch with an existing id fails DuplicateId and stores none of it",
    run: Effect.gen(function*() {
      const r = yield* repo
      const tx = yield* Transactor
      yield* r.insertAll(ORG, [sampleCustomer(1), sampleCustomer(2)])
      yield* r.insertAll(ORG, [])
      yield* tx.transaction(Effect.gen(function*() {
        yield* r.insertAll(ORG, [sampleCustomer(3), sampleCustomer(4)])
        const inside = yield* r.get(ORG, sampleCustomer(4).id)
        yield* check(inside.version === 1, "a transaction reads the batch it wrote")
      }))
      const all = yield* r.scan(ORG, undefined)
      yield* sameIds(all.map((v) => v.resource), [1, 2, 3, 4].map((n) => sampleCustomer(n)), "every batch is stored")
      yield* check(all.every((v) => v.version === 1), "inserted rows have version 1")
      const clash = yield* Effect.exit(r.insertAll(ORG, [sampleCustomer(5), { ...sampleCustomer(2), email: "other@example.com" }]))
      yield* check(failedWith(clash, "DuplicateId"), "a batch with an existing id fails with a typed DuplicateId")
      const after = yield* r.scan(ORG, undefined)
      yield* sameIds(after.map((v) => v.resource), [1, 2, 3, 4].map((n) => sampleCustomer(n)), "the failed batch stored nothing")
      const original = yield* r.get(ORG, sampleCustomer(2).id)
      yield* check(original.resource.email === sampleCustomer(2).email, "the original survives")
    })
  },
  {
    name: "a scan in pages answers every match once, oldest first, a page at most `limit` long, from just after `after`",
    run: Effect.gen(function*() {
      const r = yield* repo
      yield* r.insertAll(ORG, [1, 2, 3, 4, 5, 6, 7].map((n) => sampleCustomer(n)))
      const filters = { created_at: { op: "range", gte: sampleCustomer(2).created_at } } as const
      const whole = yield* r.scan(ORG, filters)
      const pages: Array<ReadonlyArray<string>> = []
      let after: string | undefined
      while (true) {
        const page = yield* r.scan(ORG, filters, after === undefined ? { limit: 2 } : { after, limit: 2 })
        const last = page[page.length - 1]
        if (last === undefined) break
        pages.push(page.map((v) => v.resource.id))
        after = last.resource.id
      }
      yield* check(pages.every((page) => page.length <= 2), "no page is longer than its limit")
      yield* sameIds(pages.flat().map((id) => ({ id })), whole.map((v) => v.resource), "the pages are the whole scan, in order")
      yield* sameIds(whole.map((v) => v.resource), [2, 3, 4, 5, 6, 7].map((n) => sampleCustomer(n)), "the scan is every match")
    })
  },
  {
    name: "an aggregate counts and sums the matches per value of its key, of the organisation only",
    run: Effect.gen(function*() {
      const r = yield* Effect.map(RepositoryBackend, (b: RepositoryBackend["Service"]) => b.repository(tallies))
      // n = 1..9: groups a, b, c in turn; n = 9 has no group; amounts 1000 n (and 2^40 for n = 7).
      const tally = (n: number): Tally => ({
        id: lowestIdAt(ID_PREFIXES.payment, BASE_MS + n * 1000),
        created_at: timestampFromMillis(BASE_MS + n * 1000),
        amount: n === 7 ? 2 ** 40 : n * 1000,
        group: n === 9 ? null : ["a", "b", "c"][n % 3] ?? null
      })
      yield* r.insertAll(ORG, [1, 2, 3, 4, 5, 6, 7, 8, 9].map(tally))
      yield* r.insertAll("OR0000000000ZZ", [tally(1)])
      const groups = yield* r.aggregate(ORG, { created_at: { op: "range", gte: tally(2).created_at } }, "group", "amount")
      const sorted = [...groups].sort((x, y) => String(x.key).localeCompare(String(y.key)))
      // Matches 2..9: a = {3, 6}, b = {4, 7}, c = {2, 5, 8}, none = {9}.
      const expected = [
        { key: "a", count: 2, sum: 9_000n },
        { key: "b", count: 2, sum: 4_000n + 2n ** 40n },
        { key: "c", count: 3, sum: 15_000n },
        { key: null, count: 1, sum: 9_000n }
      ]
      yield* check(JSON.stringify(sorted, (_, v) => typeof v === "bigint" ? v.toString() : v) === JSON.stringify(expected, (_, v) => typeof v === "bigint" ? v.toString() : v), `groups: ${JSON.stringify(sorted, (_, v) => typeof v === "bigint" ? v.toString() : v)}`)
      const none = yield* r.aggregate(ORG, { group: eq("z") }, "group", "amount")
      yield* check(none.length === 0, "no match, no group")
    })
  },
  {
    name: "organisations never see each other's resources",
    run: Effect.gen(function*() {
      const r = yield* repo
      const c = sampleCustomer(1)
      yield* r.insert(ORG, c)
      const crossGet = yield* Effect.exit(r.get(OTHER, c.id))
      yield* check(Exit.isFailure(crossGet), "get from another organisation fails")
      const crossList = yield* r.list(OTHER, { limit: 50 })
      yield* check(crossList.items.length === 0, "list of another organisation is empty")
      const crossUpdate = yield* Effect.exit(r.update(OTHER, { ...c, email: "stolen@example.com" }, 1))
      yield* check(Exit.isFailure(crossUpdate), "update from another organisation fails")
      yield* r.insert(OTHER, c)
      const mine = yield* r.get(ORG, c.id)
      yield* check(mine.resource.email === c.email, "the same id in two organisations are two resources")
    })
  },
  {
    name: "lists are newest first and cursors walk every page both ways",
    run: Effect.gen(function*() {
      const r = yield* repo
      const all = Array.from({ length: 7 }, (_, i) => sampleCustomer(i + 1))
      // Inserted out of order: the order of a list is the ids', not the inserts'.
      for (const c of [all[3], all[0], all[6], all[2], all[5], all[1], all[4]]) if (c !== undefined) yield* r.insert(ORG, c)
      const newestFirst = [...all].reverse()
      const page1 = yield* r.list(ORG, { limit: 3 })
      yield* sameIds(page1.items, newestFirst.slice(0, 3), "first page")
      yield* check(page1.before === null, "first page has no before cursor")
      yield* check(page1.after === newestFirst[2]?.id, "first page's after cursor is its last id")
      const page2 = yield* r.list(ORG, { limit: 3, after: page1.after ?? "" })
      yield* sameIds(page2.items, newestFirst.slice(3, 6), "second page")
      yield* check(page2.before === newestFirst[3]?.id, "second page's before cursor is its first id")
      const page3 = yield* r.list(ORG, { limit: 3, after: page2.after ?? "" })
      yield* sameIds(page3.items, newestFirst.slice(6), "last page")
      yield* check(page3.after === null, "last page has no after cursor")
      const back = yield* r.list(ORG, { limit: 3, before: page3.before ?? "" })
      yield* sameIds(back.items, page2.items, "before cursor returns the previous page")
      const backToStart = yield* r.list(ORG, { limit: 3, before: page2.before ?? "" })
      yield* sameIds(backToStart.items, page1.items, "before cursor of page 2 returns page 1")
      for (const limit of [1, 2, 5, 7, 10]) {
        for (const cursor of [undefined, ...all.map((c) => c.id)]) {
          const afterPage = yield* r.list(ORG, cursor === undefined ? { limit } : { limit, after: cursor })
          const expectedAfter = pageOf(newestFirst, cursor === undefined ? { limit } : { limit, after: cursor })
          yield* check(JSON.stringify(afterPage) === JSON.stringify(expectedAfter), `after page (limit ${limit}, after ${cursor}) matches the reference`)
          if (cursor === undefined) continue
          const beforePage = yield* r.list(ORG, { limit, before: cursor })
          const expectedBefore = pageOf(newestFirst, { limit, before: cursor })
          yield* check(JSON.stringify(beforePage) === JSON.stringify(expectedBefore), `before page (limit ${limit}, before ${cursor}) matches the reference`)
        }
      }
    })
  },
  {
    name: "ordered lists: by a key's value then id, both directions, cursors both ways, under filters; rows without the key are not listed",
    run: Effect.gen(function*() {
      const r = yield* repo
      // Values out of id order, with ties (broken by id) and one row without a value.
      const emails = ["c@x", "a@x", "c@x", "b@x", null, "a@x", "d@x"]
      const all = emails.map((email, i) => sampleCustomer(i + 1, { email }))
      for (const c of all) yield* r.insert(ORG, c)
      const listed = all.filter((c) => c.email !== null)
      for (const direction of ["asc", "desc"] as const) {
        const sign = direction === "asc" ? 1 : -1
        const place = (c: Customer) => `${c.email ?? ""}\u0000${c.id}`
        const sorted = [...listed].sort((a, b) => sign * (place(a) < place(b) ? -1 : place(a) > place(b) ? 1 : 0))
        for (const limit of [1, 3, 7]) {
          // Walked forwards with after cursors, then back with before cursors: every row once, in order.
          const seen: Array<Customer> = []
          let after: string | undefined
          for (;;) {
            const page = yield* r.list(ORG, { limit, order: { key: "email", direction }, ...(after === undefined ? {} : { after }) })
            const start = after === undefined ? 0 : sorted.findIndex((c) => c.id === after) + 1
            yield* sameIds(page.items, sorted.slice(start, start + limit), `${direction} page after ${after} (limit ${limit})`)
            yield* check(page.before === (start > 0 && page.items.length > 0 ? page.items[0]?.id ?? null : null), `${direction} before cursor after ${after}`)
            seen.push(...page.items)
            if (page.after === null) break
            after = page.after
          }
          yield* sameIds(seen, sorted, `${direction} walk (limit ${limit})`)
          for (const [i, cursor] of sorted.entries()) {
            const back = yield* r.list(ORG, { limit, order: { key: "email", direction }, before: cursor.id })
            yield* sameIds(back.items, sorted.slice(Math.max(0, i - limit), i), `${direction} page before ${cursor.id} (limit ${limit})`)
          }
        }
        // A membership filter is several branches, merged in order.
        const filtered = yield* r.list(ORG, { limit: 10, order: { key: "email", direction }, filters: { removed: eq("false"), email: oneOf(["a@x", "c@x"]) } })
        yield* sameIds(filtered.items, sorted.filter((c) => c.email === "a@x" || c.email === "c@x"), `${direction} under membership filters`)
      }
      // A cursor naming no row: nothing follows it.
      const nowhere = yield* r.list(ORG, { limit: 5, order: { key: "email", direction: "asc" }, after: sampleCustomer(99).id })
      yield* sameIds(nowhere.items, [], "after a cursor naming no row")
    })
  },
  {
    name: "filters: equality, membership, created_at ranges, and a missing value never matches",
    run: Effect.gen(function*() {
      const r = yield* repo
      const all = Array.from({ length: 6 }, (_, i) => sampleCustomer(i + 1, i === 5 ? { email: null } : {}))
      for (const c of all) yield* r.insert(ORG, c)
      const byEmail = yield* r.list(ORG, { limit: 50, filters: { email: eq("payer3@example.com") } })
      yield* sameIds(byEmail.items, [all[2]].flatMap((c) => (c === undefined ? [] : [c])), "equality filter")
      const byEmails = yield* r.list(ORG, { limit: 50, filters: { email: oneOf(["payer1@example.com", "payer4@example.com", "nobody@example.com"]) } })
      yield* sameIds(byEmails.items, [all[3], all[0]].flatMap((c) => (c === undefined ? [] : [c])), "membership filter")
      const third = all[2]
      const fifth = all[4]
      if (third === undefined || fifth === undefined) return yield* new ContractViolation({ message: "fixture" })
      const ranges: ReadonlyArray<readonly [Filter, ReadonlyArray<Customer>]> = [
        [{ op: "range", gt: third.created_at }, all.slice(3)],
        [{ op: "range", gte: third.created_at }, all.slice(2)],
        [{ op: "range", lt: third.created_at }, all.slice(0, 2)],
        [{ op: "range", lte: third.created_at }, all.slice(0, 3)],
        [{ op: "range", gte: third.created_at, lt: fifth.created_at }, all.slice(2, 4)]
      ]
      for (const [filter, expected] of ranges) {
        const page = yield* r.list(ORG, { limit: 50, filters: { created_at: filter } })
        yield* sameIds(page.items, [...expected].reverse(), `range ${JSON.stringify(filter)}`)
      }
      const paged = yield* r.list(ORG, { limit: 2, filters: { created_at: { op: "range", gte: third.created_at } } })
      yield* check(paged.after !== null && paged.before === null, "cursors count only matching resources")
      const scanned = yield* r.scan(ORG, { created_at: { op: "range", gte: third.created_at } })
      yield* sameIds(scanned.map((v) => v.resource), all.slice(2), "scan returns every match oldest first")
    })
  },
  {
    name: "update with the read version succeeds once; a stale version is a VersionConflict",
    run: Effect.gen(function*() {
      const r = yield* repo
      const c = sampleCustomer(1)
      yield* r.insert(ORG, c)
      const updated = yield* r.update(ORG, { ...c, email: "first@example.com" }, 1)
      yield* check(updated.version === 2, "update bumps the version")
      const stale = yield* Effect.exit(r.update(ORG, { ...c, email: "second@example.com" }, 1))
      yield* check(Exit.isFailure(stale) && JSON.stringify(stale).includes("VersionConflict"), "stale update fails VersionConflict")
      const got = yield* r.get(ORG, c.id)
      yield* check(got.resource.email === "first@example.com" && got.version === 2, "the winner's write is kept")
      const missing = yield* Effect.exit(r.update(ORG, sampleCustomer(9), 1))
      yield* check(Exit.isFailure(missing) && JSON.stringify(missing).includes("NotFound"), "update of an unknown id is NotFound")
    })
  },
  {
    name: "a failed transaction rolls back every write and event; a successful one commits them",
    run: Effect.gen(function*() {
      const r = yield* repo
      const tx = yield* Transactor
      const log = yield* EventLog
      const kept = sampleCustomer(1)
      yield* r.insert(ORG, kept)
      const failed = yield* Effect.exit(tx.transaction(Effect.gen(function*() {
        yield* r.insert(ORG, sampleCustomer(2))
        yield* r.update(ORG, { ...kept, email: "changed@example.com" }, 1)
        yield* log.append(ORG, [sampleEvent(2, "customers", "created", { customer: sampleCustomer(2).id })])
        const inside = yield* r.list(ORG, { limit: 50 })
        yield* check(inside.items.length === 2, "a transaction reads its own writes")
        return yield* new ContractViolation({ message: "abort" })
      })))
      yield* check(Exit.isFailure(failed), "the transaction failed")
      const afterFailure = yield* r.list(ORG, { limit: 50 })
      yield* sameIds(afterFailure.items, [kept], "the insert was rolled back")
      const keptNow = yield* r.get(ORG, kept.id)
      yield* check(keptNow.version === 1 && keptNow.resource.email === kept.email, "the update was rolled back")
      const noEvents = yield* log.list(ORG, { limit: 50 })
      yield* check(noEvents.items.length === 0, "the event was rolled back")
      yield* tx.transaction(Effect.gen(function*() {
        yield* r.insert(ORG, sampleCustomer(3))
        // A nested transaction joins the outer one.
        yield* tx.transaction(log.append(ORG, [sampleEvent(3, "customers", "created", { customer: sampleCustomer(3).id })]))
      }))
      const committed = yield* r.list(ORG, { limit: 50 })
      yield* check(committed.items.length === 2, "the committed insert is visible")
      const events = yield* log.list(ORG, { limit: 50 })
      yield* check(events.items.length === 1, "the committed event is visible")
    })
  },
  {
    name: "a nested transaction's writes roll back with the outer transaction",
    run: Effect.gen(function*() {
      const r = yield* repo
      const tx = yield* Transactor
      const outcome = yield* Effect.exit(tx.transaction(Effect.gen(function*() {
        yield* tx.transaction(r.insert(ORG, sampleCustomer(1)))
        return yield* new ContractViolation({ message: "abort" })
      })))
      yield* check(Exit.isFailure(outcome), "the outer transaction failed")
      const page = yield* r.list(ORG, { limit: 50 })
      yield* check(page.items.length === 0, "the inner write was rolled back")
    })
  },
  {
    name: "events filter by resource type, action, link and created_at, newest first",
    run: Effect.gen(function*() {
      const log = yield* EventLog
      const e1 = sampleEvent(1, "payments", "created", { payment: "PM1", mandate: "MD1" })
      const e2 = sampleEvent(2, "payments", "confirmed", { payment: "PM1" })
      const e3 = sampleEvent(3, "mandates", "active", { mandate: "MD1" })
      const e4 = sampleEvent(4, "payments", "created", { payment: "PM2", mandate: "MD2" })
      yield* log.append(ORG, [e1, e2, e3, e4])
      yield* log.append(OTHER, [sampleEvent(5, "payments", "created", { payment: "PM1" })])
      const payments = yield* log.list(ORG, { limit: 50, filters: { resource_type: eq("payments") } })
      yield* sameIds(payments.items, [e4, e2, e1], "resource_type filter")
      const created = yield* log.list(ORG, { limit: 50, filters: { resource_type: eq("payments"), action: eq("created") } })
      yield* sameIds(created.items, [e4, e1], "resource_type and action filters")
      const ofPayment = yield* log.list(ORG, { limit: 50, filters: { payment: eq("PM1") } })
      yield* sameIds(ofPayment.items, [e2, e1], "payment link filter")
      const ofMandate = yield* log.list(ORG, { limit: 50, filters: { mandate: eq("MD1") } })
      yield* sameIds(ofMandate.items, [e3, e1], "mandate link filter")
      const recent = yield* log.list(ORG, { limit: 50, filters: { created_at: { op: "range", gt: e2.created_at } } })
      yield* sameIds(recent.items, [e4, e3], "created_at filter")
      const got = yield* log.get(ORG, e3.id)
      yield* check(got.id === e3.id, "get returns the event")
    })
  },
  {
    name: "organisations lists every organisation holding data",
    run: Effect.gen(function*() {
      const backend = yield* RepositoryBackend
      const r = backend.repository(customers)
      yield* r.insert(OTHER, sampleCustomer(1))
      yield* r.insert(ORG, sampleCustomer(2))
      const organisations = yield* backend.organisations
      yield* check(JSON.stringify([...organisations].sort()) === JSON.stringify([ORG, OTHER].sort()), "both organisations are listed")
    })
  }
]

/** A resource with an amount and a grouping key, for aggregates. */
const Tally = Schema.Struct({ id: Schema.String, created_at: Schema.String, amount: Schema.Number, group: Schema.NullOr(Schema.String) })
type Tally = typeof Tally.Type

const tallies = defineResource({
  name: "tallies",
  idPrefix: ID_PREFIXES.payment,
  schema: Tally,
  filters: { created_at: (r: Tally) => r.created_at, group: (r: Tally) => r.group }
})

/**
 * A resource of the refund machine's table, standing for any machine resource: the history rows
 * and events its moves make are the real machine's (`refunds`), its own rows a table of its own.
 */
const HistorySample = Schema.Struct({
  id: Schema.String,
  created_at: Schema.String,
  status: RefundStatus,
  metadata: Schema.Record(Schema.String, Schema.String)
})
type HistorySample = typeof HistorySample.Type
const historySamples = defineResource({
  name: "history_samples",
  idPrefix: ID_PREFIXES.refund,
  schema: HistorySample,
  filters: { created_at: (r: HistorySample) => r.created_at }
})

const sampleFields = (n: number): Omit<HistorySample, "status"> => ({
  id: lowestIdAt(ID_PREFIXES.refund, BASE_MS + n * 1000),
  created_at: timestampFromMillis(BASE_MS + n * 1000),
  metadata: { n: String(n) }
})

const CAUSE = { origin: "api", cause: "contract" } as const

/** Creates a sample and moves it by `events` through the refund table, each move a unit of work. */
const movedSample = (organisation: string, n: number, events: ReadonlyArray<(typeof refundMachine.events)[number]>) =>
  Effect.gen(function*() {
    const backend = yield* RepositoryBackend
    const tx = yield* Transactor
    const r = backend.repository(historySamples)
    const fields = sampleFields(n)
    const links = { refund: fields.id }
    let current = yield* tx.transaction(applyCreation(r, { organisation, machine: refundMachine, state: "created", resource: fields, cause: CAUSE, links }))
    for (const event of events) {
      const read = current
      yield* tx.transaction(applyTransition(r, { organisation, machine: refundMachine, current: read, event, context: {}, cause: CAUSE, links }))
      current = yield* r.get(organisation, fields.id)
    }
    return current
  }).pipe(Effect.provide(IdGenerator.layerSeeded(n)))

const historyCases: ReadonlyArray<RepositoryContractCase> = [
  {
    name: "history: every creation and move stores one entry, in order, and the events are the entries' own",
    run: Effect.gen(function*() {
      const log = yield* EventLog
      const stored = yield* movedSample(ORG, 1, ["queue", "submit", "pay", "settle"])
      yield* movedSample(ORG, 2, ["cancel"])
      const history = yield* log.history(ORG, "refunds", stored.resource.id)
      yield* check(JSON.stringify(history.map((h) => [h.from, h.to, h.event])) === JSON.stringify([
        [null, "created", "create"],
        ["created", "pending_submission", "queue"],
        ["pending_submission", "submitted", "submit"],
        ["submitted", "paid", "pay"],
        ["paid", "paid", "settle"]
      ]), `the entries chain from creation to the status: ${JSON.stringify(history)}`)
      yield* check(history.every((h, i) => i === 0 || h.sort_key > (history[i - 1]?.sort_key ?? Infinity)), "sort keys ascend")
      yield* check(history.every((h) => h.resource_id === stored.resource.id && h.resource_type === "refunds"), "only this resource's entries")
      const events = yield* log.scan(ORG, { refund: eq(stored.resource.id) })
      yield* check(
        JSON.stringify(events.map((e) => [e.id, e.resource_type, e.action, e.details.cause])) ===
          JSON.stringify(history.filter((h) => h.emits !== null).map((h) => [h.event_id, h.resource_type, h.emits, h.cause.cause])),
        "each event is the one its entry names, with its cause"
      )
      yield* check(history.every((h) => (h.emits === null) === (h.event_id === null)), "an entry that emits nothing has no event")
      const elsewhere = yield* log.history(OTHER, "refunds", stored.resource.id)
      yield* check(elsewhere.length === 0, "another organisation sees no history")
      const otherType = yield* log.history(ORG, "payments", stored.resource.id)
      yield* check(otherType.length === 0, "the history is per resource type")
    })
  },
  {
    name: "history: an entry commits with its move and rolls back with it; a refused move leaves none",
    run: Effect.gen(function*() {
      const log = yield* EventLog
      const tx = yield* Transactor
      const r = (yield* RepositoryBackend).repository(historySamples)
      const stored = yield* movedSample(ORG, 3, [])
      const id = stored.resource.id
      const request = { organisation: ORG, machine: refundMachine, current: stored, context: {}, cause: CAUSE, links: { refund: id } }
      const failed = yield* Effect.exit(tx.transaction(Effect.gen(function*() {
        yield* applyTransition(r, { ...request, event: "cancel" })
        return yield* new ContractViolation({ message: "abort" })
      })).pipe(Effect.provide(IdGenerator.layerSeeded(3))))
      yield* check(Exit.isFailure(failed), "the unit of work failed")
      const refused = yield* Effect.exit(tx.transaction(applyTransition(r, { ...request, event: "pay" })).pipe(Effect.provide(IdGenerator.layerSeeded(4))))
      yield* check(Exit.isFailure(refused), "the table refuses pay from created")
      const history = yield* log.history(ORG, "refunds", id)
      yield* check(history.length === 1 && history[0]?.to === "created", `only the creation is recorded: ${JSON.stringify(history)}`)
      const events = yield* log.scan(ORG, { refund: eq(id) })
      yield* check(events.length === 1 && events[0]?.action === "created", "only the creation's event is stored")
    })
  }
]

const cases: ReadonlyArray<RepositoryContractCase> = [...storageCases, ...historyCases]

export const RepositoryContract = {
  cases,
  /** Runs one case against a fresh store built from `layer`. */
  run: (contractCase: RepositoryContractCase, layer: Layer.Layer<Storage, unknown>): Promise<void> =>
    Effect.runPromise(Effect.provide(contractCase.run, layer))
}
