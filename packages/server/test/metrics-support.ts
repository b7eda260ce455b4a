/**
 * Prometheus's text format read back, for the tests: each sample with its family (the name its
 * `# TYPE` line gives: a histogram's `_bucket`, `_sum` and `_count` belong to it), labels and value.
 */

export interface Sample {
  readonly family: string
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g

const valueText = (text: string): number => text === "+Inf" ? Infinity : text === "-Inf" ? -Infinity : Number(text)

export const samplesOf = (text: string): ReadonlyArray<Sample> => {
  const families: Array<string> = []
  const samples: Array<Sample> = []
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) \S+$/.exec(line)
    if (type?.[1] !== undefined) families.push(type[1])
    if (line === "" || line.startsWith("#")) continue
    const match = SAMPLE.exec(line)
    if (match === null) throw new Error(`not a sample line: ${line}`)
    const name = match[1] ?? ""
    const labels: Record<string, string> = {}
    for (const label of (match[2] ?? "").matchAll(LABEL)) labels[label[1] ?? ""] = label[2] ?? ""
    const family = families.find((f) => name === f || name === `${f}_bucket` || name === `${f}_sum` || name === `${f}_count`)
    if (family === undefined) throw new Error(`a sample without its # TYPE line: ${line}`)
    samples.push({ family, name, labels, value: valueText(match[3] ?? "") })
  }
  return samples
}

/** The value of the sample `name` whose labels include `labels` (the first such). */
export const valueOf = (samples: ReadonlyArray<Sample>, name: string, labels: Readonly<Record<string, string>> = {}): number | undefined =>
  samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value
