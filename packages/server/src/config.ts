import { Config, ConfigProvider, Effect, Option, Redacted, Schema } from "effect"
import { DEFAULT_EVENT_RETENTION_DAYS, WebhookSecret } from "@paykit/engine"
import { CITUS_ROUTING_SETTINGS, CITUS_SETTINGS, type CitusRouting, type CitusSetting, SchemaName } from "@paykit/store-sql"
import { DEFAULT_DATA_DIR, DEFAULT_PORT, type SettingName } from "./server-settings.ts"

export { DEFAULT_DATA_DIR, DEFAULT_PORT, flagOfSetting, SERVER_SETTINGS, type SettingName } from "./server-settings.ts"

/**
 * What the environment decides about a server. `PAYKIT_MODE` is this server's own setting (the
 * GoCardless API has separate sandbox and live hosts; one paykit process is one of them).
 */

export const SERVER_MODES = ["sandbox", "live"] as const
export type ServerMode = (typeof SERVER_MODES)[number]

export const DEFAULT_HOST = "127.0.0.1"

/**
 * `PAYKIT_BANK`: the bank direct debits go through (docs/bank-rails.md). `sandbox`: the sandbox
 * bank, which reads each submission's file and reports what the test values choose. `files`: the
 * files bank, which keeps each submission's file for someone to carry to a bank and learns
 * outcomes only from the reports posted back (`POST /bank_reports`).
 */
export const BANK_SETTINGS = ["sandbox", "files"] as const

/** `PAYKIT_REQUEST_LOG`: whether each API request is stored, redacted (docs/dashboard.md, "Request log"); on by default. */
export const REQUEST_LOG_SETTINGS = ["on", "off"] as const
export type RequestLogSetting = (typeof REQUEST_LOG_SETTINGS)[number]
export type BankSetting = (typeof BANK_SETTINGS)[number]

/**
 * Where the server's tables are. `schema` (`PAYKIT_DB_SCHEMA`): the PostgreSQL schema they live in,
 * created if missing; absent, the connection's own search path, which puts them in `public` as
 * before schemas could be chosen (docs/storage.md, "A schema of its own"). `citus`
 * (`PAYKIT_CITUS`): on a Citus coordinator with workers the tables are distributed by organisation
 * (`auto`, the default) or kept local (`off`); docs/storage.md, "Citus". `citusRouting`
 * (`PAYKIT_CITUS_ROUTING`): on a cluster each organisation's work is sent to the node holding its
 * shards (`on`, the default), or everything through the node `DATABASE_URL` names (`off`).
 */
export type Database =
  | { readonly _tag: "Pglite"; readonly dataDir: string | undefined; readonly schema?: string | undefined }
  | {
    readonly _tag: "Postgres"
    readonly url: Redacted.Redacted<string>
    readonly schema?: string | undefined
    readonly citus?: CitusSetting | undefined
    readonly citusRouting?: CitusRouting | undefined
  }

export interface ServerConfig {
  readonly port: number
  readonly host: string
  readonly mode: ServerMode
  /** `PAYKIT_BANK`; absent, `sandbox`. */
  readonly bank?: BankSetting
  readonly database: Database
  /** The sandbox organisation's token to create instead of a random one. */
  readonly sandboxToken: Option.Option<Redacted.Redacted<string>>
  /**
   * `PAYKIT_ADMIN_SECRET`: a bearer that may, like the sandbox organisation's token, make and
   * remove sandbox organisations (`POST /sandbox/organisations`); absent, only that token may.
   */
  readonly adminSecret?: Option.Option<Redacted.Redacted<string>>
  /** The due-work worker's poll interval and lease (`PAYKIT_WORKER_POLL_MS`, `PAYKIT_WORKER_LEASE_MS`), when set. */
  readonly worker?: { readonly pollMillis?: number; readonly leaseMillis?: number }
  /** Webhooks: the sandbox organisation's endpoint and the key sealing secrets (`docs/webhooks.md`). */
  readonly webhooks?: WebhookConfig
  /** How many days events, webhook records and the request log are kept (`PAYKIT_EVENT_RETENTION_DAYS`; default `DEFAULT_EVENT_RETENTION_DAYS`). */
  readonly eventRetentionDays?: number
  /** `PAYKIT_REQUEST_LOG`; absent, `on`. */
  readonly requestLog?: RequestLogSetting
  /**
   * `PAYKIT_PUBLIC_URL`: where people reach this server (`https://pay.example.com`), the base of
   * every URL the API hands to a person (bank authorisation pages, QR codes, institution images,
   * import authorisation pages). Absent: the listening address (`publicUrlOf`).
   */
  readonly publicUrl?: string
  /** `PAYKIT_CONNECT_PORT`: the connect server's port (docs/oauth.md); absent, `connectPortOf`. */
  readonly connectPort?: number
  /** `PAYKIT_CONNECT_URL`: where apps send users to the connect server; absent, its listening address. */
  readonly connectUrl?: string
  /**
   * `PAYKIT_METRICS_PORT`: the port of the Prometheus listener (`GET /metrics`, docs/operations.md),
   * on `host`; 0, a free one; absent, none. Never the API's port.
   */
  readonly metricsPort?: number
}

/** The connect server's port: the one configured, else the API's port + 1 (0, a free one, when the API's is 0). */
export const connectPortOf = (config: Pick<ServerConfig, "port" | "connectPort">): number =>
  config.connectPort ?? (config.port === 0 ? 0 : config.port + 1)

export interface WebhookConfig {
  /** `PAYKIT_WEBHOOK_URL` and `PAYKIT_WEBHOOK_SECRET`: the sandbox organisation's endpoint, made or updated at start. */
  readonly endpoint: Option.Option<{ readonly url: string; readonly secret: Redacted.Redacted<string> }>
  /** `PAYKIT_WEBHOOK_SECRET_KEY`: 32 bytes, hex or base64. Absent: the key file in `keyDir`, made on first start. */
  readonly secretKey: Option.Option<Redacted.Redacted<string>>
  /** Where the key file is kept when no key is given: the data directory (`PAYKIT_DATA_DIR`, or the default). */
  readonly keyDir: string | undefined
}

/**
 * A token given in `PAYKIT_SANDBOX_TOKEN` is sent as `Authorization: Bearer <token>`, so it must be
 * one word of visible ASCII; 16 characters at least, so that a typo'd short value is not taken.
 */
export const SANDBOX_TOKEN_PATTERN = /^[\x21-\x7e]{16,256}$/

const SandboxToken = Schema.String.check(Schema.isPattern(SANDBOX_TOKEN_PATTERN, {
  message: "PAYKIT_SANDBOX_TOKEN must be 16 to 256 visible ASCII characters without spaces"
}))

/** The admin secret is a bearer too, and long enough not to be guessed. */
const AdminSecret = Schema.String.check(Schema.isPattern(/^[\x21-\x7e]{24,256}$/, {
  message: "PAYKIT_ADMIN_SECRET must be 24 to 256 visible ASCII characters without spaces"
}))

/** A worker's interval or lease: whole milliseconds, 10 ms to a day. */
const WorkerMillis = Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 10, maximum: 86_400_000 }))

/** A retention period: whole days, one day to a hundred years. */
const RetentionDays = Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 36_500 }))

/** An http(s) URL without query or fragment (the pages' paths are appended to it). */
/** An http(s) base URL without query or fragment (paths are appended to it), named `setting` in its message. */
const baseUrlSetting = (setting: string) => Schema.String.check(Schema.makeFilter((value: string) => {
  try {
    const url = new URL(value)
    return (url.protocol === "http:" || url.protocol === "https:") && url.search === "" && url.hash === "" && url.username === "" && url.password === ""
  } catch {
    return false
  }
}, { message: `${setting} must be an http or https URL without query, fragment or credentials` }))

const PublicUrl = baseUrlSetting("PAYKIT_PUBLIC_URL")
const ConnectUrl = baseUrlSetting("PAYKIT_CONNECT_URL")
/** A port, or 0 for any free one (tests and child processes that must not guess a free port + 1). */
const ConnectPort = Schema.NumberFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 65_535 }))

/** A setting's name as `serverConfig` reads it: only the table's names type-check. */
const setting = (name: SettingName): string => name

const nonEmpty = (name: SettingName) =>
  Config.option(Config.String(setting(name))).pipe(Config.map((value) => Option.filter(value, (v) => v.trim().length > 0)))

const configError = (message: string) => new Config.ConfigError(new ConfigProvider.SourceError({ message }))

/** A URL the PostgreSQL driver can connect with: `postgres:` or `postgresql:`, with a host. */
const isPostgresUrl = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (url.protocol === "postgresql:" || url.protocol === "postgres:") && url.hostname !== ""
  } catch {
    return false
  }
}

export const serverConfig: Config.Config<ServerConfig> = Config.all({
  port: Config.Port(setting("PORT")).pipe(Config.withDefault(DEFAULT_PORT)),
  host: Config.String(setting("HOST")).pipe(Config.withDefault(DEFAULT_HOST)),
  mode: Config.Literals(SERVER_MODES, setting("PAYKIT_MODE")).pipe(Config.withDefault<ServerMode>("sandbox")),
  bank: Config.Literals(BANK_SETTINGS, setting("PAYKIT_BANK")).pipe(Config.withDefault<BankSetting>("sandbox")),
  requestLog: Config.Literals(REQUEST_LOG_SETTINGS, setting("PAYKIT_REQUEST_LOG")).pipe(Config.withDefault<RequestLogSetting>("on")),
  databaseUrl: nonEmpty("DATABASE_URL"),
  dataDir: nonEmpty("PAYKIT_DATA_DIR"),
  schema: Config.option(Config.schema(SchemaName, setting("PAYKIT_DB_SCHEMA"))),
  citus: Config.option(Config.Literals(CITUS_SETTINGS, setting("PAYKIT_CITUS"))),
  citusRouting: Config.option(Config.Literals(CITUS_ROUTING_SETTINGS, setting("PAYKIT_CITUS_ROUTING"))),
  sandboxToken: Config.option(Config.schema(SandboxToken, setting("PAYKIT_SANDBOX_TOKEN"))),
  adminSecret: Config.option(Config.schema(AdminSecret, setting("PAYKIT_ADMIN_SECRET"))),
  pollMillis: Config.option(Config.schema(WorkerMillis, setting("PAYKIT_WORKER_POLL_MS"))),
  leaseMillis: Config.option(Config.schema(WorkerMillis, setting("PAYKIT_WORKER_LEASE_MS"))),
  webhookUrl: nonEmpty("PAYKIT_WEBHOOK_URL"),
  webhookSecret: Config.option(Config.schema(WebhookSecret, setting("PAYKIT_WEBHOOK_SECRET"))),
  webhookSecretKey: nonEmpty("PAYKIT_WEBHOOK_SECRET_KEY"),
  eventRetentionDays: Config.schema(RetentionDays, setting("PAYKIT_EVENT_RETENTION_DAYS")).pipe(Config.withDefault(DEFAULT_EVENT_RETENTION_DAYS)),
  publicUrl: Config.option(Config.schema(PublicUrl, setting("PAYKIT_PUBLIC_URL"))),
  connectPort: Config.option(Config.schema(ConnectPort, setting("PAYKIT_CONNECT_PORT"))),
  connectUrl: Config.option(Config.schema(ConnectUrl, setting("PAYKIT_CONNECT_URL"))),
  metricsPort: Config.option(Config.schema(ConnectPort, setting("PAYKIT_METRICS_PORT")))
}).pipe(
  Config.mapEffect(({ webhookUrl, webhookSecret, webhookSecretKey, ...rest }) =>
    Option.isSome(webhookUrl) && Option.isNone(webhookSecret)
      ? Effect.fail(configError("PAYKIT_WEBHOOK_SECRET is required with PAYKIT_WEBHOOK_URL"))
      : Option.isSome(rest.metricsPort) && rest.metricsPort.value !== 0 && rest.metricsPort.value === rest.port
      ? Effect.fail(configError("PAYKIT_METRICS_PORT must not be the API's PORT: the metrics are served on a listener of their own, never the API's"))
      : Option.isSome(rest.databaseUrl) && !isPostgresUrl(rest.databaseUrl.value)
      ? Effect.fail(configError(`DATABASE_URL must be a PostgreSQL URL, postgresql://user:password@host:5432/database (unset it to use the embedded PGlite)`))
      : Effect.succeed({
        ...rest,
        webhooks: {
          endpoint: Option.isSome(webhookUrl) && Option.isSome(webhookSecret)
            ? Option.some({ url: webhookUrl.value, secret: Redacted.make(webhookSecret.value) })
            : Option.none(),
          secretKey: Option.map(webhookSecretKey, (key) => Redacted.make(key)),
          keyDir: Option.getOrElse(rest.dataDir, () => DEFAULT_DATA_DIR)
        } satisfies WebhookConfig
      })
  ),
  Config.map(({ databaseUrl, dataDir, schema, citus, citusRouting, sandboxToken, adminSecret, pollMillis, leaseMillis, publicUrl, connectPort, connectUrl, metricsPort, ...rest }): ServerConfig => ({
    ...rest,
    ...(Option.isSome(metricsPort) ? { metricsPort: metricsPort.value } : {}),
    ...(Option.isSome(publicUrl) ? { publicUrl: publicUrl.value } : {}),
    ...(Option.isSome(connectPort) ? { connectPort: connectPort.value } : {}),
    ...(Option.isSome(connectUrl) ? { connectUrl: connectUrl.value } : {}),
    worker: {
      ...(Option.isSome(pollMillis) ? { pollMillis: pollMillis.value } : {}),
      ...(Option.isSome(leaseMillis) ? { leaseMillis: leaseMillis.value } : {})
    },
    database: {
      ...(Option.isSome(databaseUrl)
        ? {
          _tag: "Postgres",
          url: Redacted.make(databaseUrl.value),
          ...(Option.isSome(citus) ? { citus: citus.value } : {}),
          ...(Option.isSome(citusRouting) ? { citusRouting: citusRouting.value } : {})
        }
        : { _tag: "Pglite", dataDir: Option.getOrElse(dataDir, () => DEFAULT_DATA_DIR) }),
      ...(Option.isSome(schema) ? { schema: schema.value } : {})
    },
    sandboxToken: Option.map(sandboxToken, (token) => Redacted.make(token)),
    adminSecret: Option.map(adminSecret, (secret) => Redacted.make(secret))
  }))
)
