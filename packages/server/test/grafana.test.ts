import { Schema } from "effect"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { PAYKIT_METRICS } from "@paykit/engine"

/**
 * docs/grafana/paykit.json (docs/operations.md, "Metrics") may query only the series paykit
 * exports: a panel naming a series that is not in `PAYKIT_METRICS` (a typo, a renamed metric)
 * would show "No data" to the operator who needs it most.
 */

const DASHBOARD_PATH = new URL("../../../docs/grafana/paykit.json", import.meta.url)

const Target = Schema.Struct({ refId: Schema.String, expr: Schema.String })
const Panel = Schema.Struct({
  id: Schema.Number,
  type: Schema.String,
  title: Schema.String,
  datasource: Schema.optionalKey(Schema.Struct({ type: Schema.String, uid: Schema.String })),
  targets: Schema.optionalKey(Schema.Array(Target))
})
const Variable = Schema.Struct({ name: Schema.String, type: Schema.String, query: Schema.Unknown, definition: Schema.optionalKey(Schema.String) })
const Dashboard = Schema.Struct({
  title: Schema.String,
  uid: Schema.String,
  schemaVersion: Schema.Number,
  templating: Schema.Struct({ list: Schema.Array(Variable) }),
  panels: Schema.Array(Panel)
})
type Dashboard = typeof Dashboard.Type

const readDashboard = (): Dashboard => Schema.decodeUnknownSync(Dashboard)(JSON.parse(readFileSync(DASHBOARD_PATH, "utf8")))

/** A name, not the tail of a number or a duration (`1h`, `0.99`). */
const IDENTIFIER = /(?<![A-Za-z0-9_:.])[A-Za-z_:][A-Za-z0-9_:]*/g

const PROMQL_KEYWORDS = new Set(["by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "offset", "bool", "inf", "nan"])

/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, ranges,
 * grouping clauses, Grafana's `$variables`, numbers and function calls are taken out.
 */
const seriesOf = (expr: string): ReadonlyArray<string> => {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, "\"\"")
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ")
    .replace(/\$\{?\w+\}?/g, " ")
  return [...bare.matchAll(IDENTIFIER)]
    .filter((match) => !/^\s*\(/.test(bare.slice(match.index + match[0].length)) && !PROMQL_KEYWORDS.has(match[0].toLowerCase()))
    .map((match) => match[0])
}

const HISTOGRAM_SUFFIXES = ["_bucket", "_sum", "_count"]

/** The catalogue's series as Prometheus shows them: a histogram only through its suffixed series. */
const exported = new Set(
  PAYKIT_METRICS.flatMap((metric) => metric.type === "histogram" ? HISTOGRAM_SUFFIXES.map((suffix) => metric.name + suffix) : [metric.name])
)

/** A query variable's `label_values(<series selector>, <label>)`: the selector is PromQL, the label is not. */
const LABEL_VALUES = /^\s*label_values\(\s*(.+?)\s*,\s*\w+\s*\)\s*$/

/** Every expression of the dashboard, its panels' and its query variables', with where it is. */
const expressionsOf = (dashboard: Dashboard): ReadonlyArray<{ readonly where: string; readonly expr: string }> => [
  ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `${panel.title} ${target.refId}`, expr: target.expr }))),
  ...dashboard.templating.list.flatMap((variable) => {
    const series = variable.definition === undefined ? undefined : LABEL_VALUES.exec(variable.definition)?.[1]
    return series === undefined ? [] : [{ where: `$${variable.name}`, expr: series }]
  })
]

/** The names no series of paykit's has, by where they are asked for. */
const unknownSeries = (dashboard: Dashboard): ReadonlyArray<string> =>
  expressionsOf(dashboard).flatMap(({ expr, where }) => seriesOf(expr).filter((name) => !exported.has(name)).map((name) => `${where}: ${name}`))

describe("docs/grafana/paykit.json", () => {
  it("reads only series of PAYKIT_METRICS (histograms by _bucket, _sum or _count)", () => {
    const dashboard = readDashboard()
    expect(expressionsOf(dashboard).length).toBeGreaterThan(10)
    for (const { expr, where } of expressionsOf(dashboard)) expect(seriesOf(expr), where).not.toEqual([])
    expect(unknownSeries(dashboard)).toEqual([])
  })

  it("shows every series of the catalogue", () => {
    const read = new Set(expressionsOf(readDashboard()).flatMap(({ expr }) => seriesOf(expr)))
    const shown = (name: string) => read.has(name) || HISTOGRAM_SUFFIXES.some((suffix) => read.has(name + suffix))
    expect(PAYKIT_METRICS.map((metric) => metric.name).filter((name) => !shown(name))).toEqual([])
  })

  it("fails a panel that names a series paykit does not export", () => {
    const dashboard = readDashboard()
    const [first, ...rest] = dashboard.panels.filter((panel) => panel.targets !== undefined)
    expect(first).toBeDefined()
    if (first === undefined) return
    const broken: Dashboard = {
      ...dashboard,
      panels: [{ ...first, targets: [{ refId: "Z", expr: "sum(rate(paykit_http_request_total[5m])) + paykit_http_request_duration_seconds" }] }, ...rest]
    }
    expect(unknownSeries(broken)).toEqual([`${first.title} Z: paykit_http_request_total`, `${first.title} Z: paykit_http_request_duration_seconds`])
  })

  it("takes metric names, not functions, labels, keywords or variables, out of PromQL", () => {
    expect(seriesOf("histogram_quantile(0.99, sum by (kind, le) (rate(paykit_due_work_lag_seconds_bucket{job=~\"$job\"}[$__rate_interval])))"))
      .toEqual(["paykit_due_work_lag_seconds_bucket"])
    expect(seriesOf("time() - process_start_time_seconds{job=~\"$job\"}")).toEqual(["process_start_time_seconds"])
    expect(seriesOf("min_over_time(paykit_outbox_depth[15m]) > 0 and deriv(paykit_outbox_depth [15m]) > 0"))
      .toEqual(["paykit_outbox_depth", "paykit_outbox_depth"])
    expect(seriesOf("sum(rate(a_total[5m])) / on (route) group_left sum(b_total) offset 1h")).toEqual(["a_total", "b_total"])
  })

  it("asks for a Prometheus data source and every panel uses it", () => {
    const dashboard = readDashboard()
    expect(dashboard.templating.list.find((variable) => variable.name === "datasource")).toMatchObject({ type: "datasource", query: "prometheus" })
    const queried = dashboard.panels.filter((panel) => panel.type !== "row")
    expect(queried.filter((panel) => panel.datasource?.uid !== "${datasource}").map((panel) => panel.title)).toEqual([])
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length)
  })
})
