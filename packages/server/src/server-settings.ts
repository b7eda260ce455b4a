/**
 * The server's settings as a table, apart from the reading of them (config.ts), so that the
 * `paykit` command lists and takes them as flags without loading effect: it imports nothing.
 */

export const DEFAULT_PORT = 8000
export const DEFAULT_DATA_DIR = "./.paykit/data"

/**
 * Every setting the server reads, one row each: its environment variable and a line for `paykit
 * start --help`. `serverConfig` reads them by these names only (`setting`), and the command's flags
 * are made from them (`PAYKIT_DATA_DIR` is `--data-dir`, `PORT` is `--port`: `flagOfSetting`), so
 * a new setting is a new row here. docs/server.md and the README say what each does at length.
 */
export const SERVER_SETTINGS = [
  { env: "PORT", help: `the port to listen on (default ${DEFAULT_PORT})` },
  { env: "HOST", help: "the interface to listen on (default 127.0.0.1; 0.0.0.0 in a container)" },
  { env: "PAYKIT_MODE", help: "sandbox or live (default sandbox)" },
  { env: "PAYKIT_BANK", help: "sandbox or files: the sandbox bank's reports, or scheme files out and reports posted back (default sandbox)" },
  { env: "DATABASE_URL", help: "a PostgreSQL URL; unset, the embedded PGlite in the data directory" },
  { env: "PAYKIT_DATA_DIR", help: "the PGlite data directory and the webhook key file (default ./.paykit/data)" },
  { env: "PAYKIT_DB_SCHEMA", help: "the PostgreSQL schema of paykit's tables (default: the search path)" },
  { env: "PAYKIT_CITUS", help: "auto or off: on a Citus coordinator, distribute paykit's tables by organisation (default auto)" },
  { env: "PAYKIT_CITUS_ROUTING", help: "on or off: on a Citus cluster, send each organisation's work to the node holding its shards (default on)" },
  { env: "PAYKIT_SANDBOX_TOKEN", help: "the sandbox organisation's access token (16 to 256 visible ASCII characters)" },
  { env: "PAYKIT_ADMIN_SECRET", help: "a bearer that may manage sandbox organisations (24 to 256 characters)" },
  { env: "PAYKIT_WORKER_POLL_MS", help: "how often the due-work worker looks for due rows (default 250)" },
  { env: "PAYKIT_WORKER_LEASE_MS", help: "how long a worker's claim holds a row (default 15000)" },
  { env: "PAYKIT_WEBHOOK_URL", help: "the sandbox organisation's webhook endpoint (with PAYKIT_WEBHOOK_SECRET)" },
  { env: "PAYKIT_WEBHOOK_SECRET", help: "that endpoint's signing secret" },
  { env: "PAYKIT_WEBHOOK_SECRET_KEY", help: "the 32-byte key sealing webhook secrets (default: a key file in the data directory)" },
  { env: "PAYKIT_EVENT_RETENTION_DAYS", help: "how many days events, webhook records and the request log are kept (default 90)" },
  { env: "PAYKIT_REQUEST_LOG", help: "on or off: store each API request, redacted, for the dashboard's logs and paykit logs --requests (default on)" },
  { env: "PAYKIT_PUBLIC_URL", help: "where people reach the server, the base of the URLs it hands out" },
  { env: "PAYKIT_CONNECT_PORT", help: "the OAuth connect server's port (default PORT + 1; 0 for any free one)" },
  { env: "PAYKIT_CONNECT_URL", help: "where partner apps send users to connect" },
  { env: "PAYKIT_METRICS_PORT", help: "the port of the Prometheus listener, GET /metrics (default: none; never the API's port)" }
] as const

export type SettingName = (typeof SERVER_SETTINGS)[number]["env"]

/** The command-line flag of a setting: `PAYKIT_` dropped, lower case, dashes (`PAYKIT_DATA_DIR` is `data-dir`). */
export const flagOfSetting = (name: SettingName): string => name.replace(/^PAYKIT_/, "").toLowerCase().replaceAll("_", "-")
