import { execFileSync } from "node:child_process"
import { randomUUID } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { GoCardlessClient } from "gocardless-nodejs"
import { describe, expect, it } from "vitest"
import { type ChildDatabase, freePort, startChild, stopChild } from "./child-server.ts"
import { UPGRADE_FIXTURE_COMMIT, UPGRADE_FIXTURE_KEY, UPGRADE_FIXTURE_TOKEN, type UpgradeFixture } from "./fixtures/upgrade-f477ebe/fixture.ts"
import { api, localClient } from "./harness.ts"

/**
 * Upgrades in place: a PGlite directory and a PostgreSQL dump written by an older main (the
 * fixture's README names the commit and the script), opened by this version's server as
 * `npm start` runs it. What was in flight goes on: the subscription charges again, the Bacs
 * mandate never charged lapses, and the collected payment whose amount ends in 93 is charged back.
 */

const FIXTURE = fileURLToPath(new URL(`fixtures/upgrade-${UPGRADE_FIXTURE_COMMIT}/`, import.meta.url))
const written = JSON.parse(readFileSync(join(FIXTURE, "fixture.json"), "utf8")) as { readonly pglite: UpgradeFixture; readonly postgres: UpgradeFixture }

const advance = async (url: string, by: string) => {
  const response = await api(url, UPGRADE_FIXTURE_TOKEN, "/sandbox/simulator/advance", { method: "POST", body: { by } })
  expect(response.status, await response.clone().text()).toBe(200)
}

const actionsOf = async (client: GoCardlessClient, key: "payment" | "mandate", id: string) =>
  (await client.events.list({ [key]: id, limit: "500" } as never)).events.map((e) => String(e.action))

/** The journey after the upgrade, on the server at `url` over the database the old version wrote. */
const goesOn = async (url: string, fixture: UpgradeFixture) => {
  const client = localClient(UPGRADE_FIXTURE_TOKEN, url)
  // As the old server left them.
  expect((await client.payments.find(fixture.disputedPayment)).status).toBe("confirmed")
  expect((await client.subscriptions.find(fixture.subscription)).status).toBe("active")
  expect((await client.mandates.find(fixture.dormantMandate)).status).toBe("active")

  await advance(url, "P40D")
  const charged = (await client.payments.list({ subscription: fixture.subscription, limit: "50" } as never)).payments
  const newer = charged.filter((p) => !fixture.subscriptionPayments.includes(p.id ?? ""))
  expect(newer.length, "the subscription charges after the upgrade").toBeGreaterThan(0)
  expect(newer.every((p) => (p.charge_date ?? "") > fixture.clock.slice(0, 10))).toBe(true)
  expect((await client.payments.find(fixture.disputedPayment)).status).toBe("charged_back")
  expect(await actionsOf(client, "payment", fixture.disputedPayment)).toContain("charged_back")

  // Thirteen months after the mandate was made, with no payment on it.
  await advance(url, "P366D")
  await advance(url, "P30D")
  expect((await client.mandates.find(fixture.dormantMandate)).status).toBe("expired")
  expect(await actionsOf(client, "mandate", fixture.dormantMandate)).toContain("expired")
  expect((await client.mandates.find(fixture.chargingMandate)).status).toBe("active")
}

const upgradeOn = async (database: ChildDatabase, fixture: UpgradeFixture) => {
  const server = startChild(database, await freePort(), { PAYKIT_SANDBOX_TOKEN: UPGRADE_FIXTURE_TOKEN, PAYKIT_WEBHOOK_SECRET_KEY: UPGRADE_FIXTURE_KEY })
  try {
    await goesOn(await server.listening, fixture)
  } finally {
    await stopChild(server)
  }
}

describe(`an upgrade from ${UPGRADE_FIXTURE_COMMIT}`, () => {
  it("PGlite: the data directory copied and opened in place", { timeout: 900_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "paykit-upgrade-"))
    try {
      execFileSync("tar", ["-xJf", join(FIXTURE, "pglite.tar.xz"), "-C", dir])
      await upgradeOn({ dataDir: join(dir, "data") }, written.pglite)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  const adminUrl = process.env["DATABASE_URL"]
  it.skipIf(adminUrl === undefined)("PostgreSQL: the dump restored into a fresh database", { timeout: 900_000 }, async () => {
    const admin = adminUrl ?? ""
    const name = `paykit_upgrade_${randomUUID().replaceAll("-", "").slice(0, 12)}`
    const url = new URL(admin)
    url.pathname = `/${name}`
    execFileSync("psql", [admin, "-qc", `CREATE DATABASE ${name}`])
    try {
      execFileSync("psql", [url.href, "-q", "-v", "ON_ERROR_STOP=1", "-f", join(FIXTURE, "postgres.sql")], { stdio: ["ignore", "ignore", "pipe"] })
      await upgradeOn({ databaseUrl: url.href }, written.postgres)
    } finally {
      execFileSync("psql", [admin, "-qc", `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`])
    }
  })
})
