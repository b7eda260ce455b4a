import { Schema, SchemaAST } from "effect"
import { type FieldError, ValidationFailed, validationFailed } from "@paykit/core"

/**
 * Query strings of list endpoints, mapped onto the engine's list-parameter Schemas. The engine
 * owns every rule (limit bounds, timestamps, enum values, required filters); this module only
 * turns the wire form the official client sends (`qs` with `arrayFormat: "comma"`:
 * `status=a,b`, `created_at[gte]=...`) into the object those Schemas decode, and the engine's
 * field errors back into query-string names.
 */

export type QueryValues = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** What the wire form of one list's parameters looks like, read once from the engine's Schema. */
export interface QueryShape {
  /** Top-level parameters taking one value. */
  readonly singles: ReadonlyArray<string>
  /** Parameters the engine types as arrays: comma-separated or repeated on the wire. */
  readonly lists: ReadonlyArray<string>
  /** Parameters the engine types as objects (`created_at`), sent as `name[key]=value`. */
  readonly nested: ReadonlyArray<readonly [string, ReadonlyArray<string>]>
  /** Parameters the engine types as records of any keys (a payout's `metadata`), sent as `name[any key]=value`. */
  readonly records: ReadonlyArray<string>
}

/** The engine's list-parameter Schemas are Structs: their fields say the wire form. */
export interface ParamsSchema {
  readonly fields: Readonly<Record<string, Schema.Top>>
}

export const queryShapeOf = (schema: ParamsSchema): QueryShape => {
  const singles: Array<string> = []
  const lists: Array<string> = []
  const nested: Array<readonly [string, ReadonlyArray<string>]> = []
  const records: Array<string> = []
  for (const [name, field] of Object.entries(schema.fields)) {
    const encoded = SchemaAST.toEncoded(field.ast)
    // A union with an array member (`status: one | [many]`) takes the list form too.
    if (SchemaAST.isArrays(encoded) || (SchemaAST.isUnion(encoded) && encoded.types.some(SchemaAST.isArrays))) lists.push(name)
    else if (SchemaAST.isObjects(encoded) && encoded.propertySignatures.length > 0) {
      nested.push([name, encoded.propertySignatures.map((p) => String(p.name))])
    } else if (SchemaAST.isObjects(encoded) && encoded.indexSignatures.length > 0) records.push(name)
    else singles.push(name)
  }
  return { singles, lists, nested, records }
}

/** The record parameter and key a name like `metadata[plan]` names, if `shape` has that record. */
const recordKeyOf = (shape: QueryShape, name: string): readonly [string, string] | undefined => {
  const open = name.indexOf("[")
  if (open <= 0 || !name.endsWith("]")) return undefined
  const record = name.slice(0, open)
  return shape.records.includes(record) ? [record, name.slice(open + 1, -1)] : undefined
}

/** Every value of a parameter, splitting commas and flattening repeats; empty parts dropped. */
export const valuesOf = (query: QueryValues, key: string): ReadonlyArray<string> => {
  const raw = query[key]
  if (raw === undefined) return []
  const list = typeof raw === "string" ? [raw] : raw
  return list.flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "")
}

/** A single-valued parameter: the last value given (a repeat overrides), or undefined when empty. */
export const singleOf = (query: QueryValues, key: string): string | undefined => {
  const raw = query[key]
  if (raw === undefined) return undefined
  const last = typeof raw === "string" ? raw : raw[raw.length - 1]
  return last === undefined || last === "" ? undefined : last
}

/** The parameters of `query` that `shape` does not name (`statuss` for `status`), in the order sent. */
export const unknownQueryNames = (shape: QueryShape, query: QueryValues): ReadonlyArray<string> => {
  const known = new Set(queryNames(shape))
  return Object.keys(query).filter((name) => query[name] !== undefined && !known.has(name) && recordKeyOf(shape, name) === undefined)
}

/** The object the engine's Schema decodes (the handler has refused unknown parameters first). */
export const toParams = (shape: QueryShape, query: QueryValues): Record<string, unknown> => {
  const params: Record<string, unknown> = {}
  for (const name of shape.singles) {
    const value = singleOf(query, name)
    if (value !== undefined) params[name] = value
  }
  for (const name of shape.lists) {
    const values = valuesOf(query, name)
    if (values.length > 0) params[name] = values
  }
  for (const [name, keys] of shape.nested) {
    // A bare `created_at=...` is passed on as it is, so the engine refuses it (it takes an object).
    const bare = singleOf(query, name)
    if (bare !== undefined) {
      params[name] = bare
      continue
    }
    const inner: Record<string, string> = {}
    let any = false
    for (const key of keys) {
      const value = singleOf(query, `${name}[${key}]`)
      if (value !== undefined) {
        inner[key] = value
        any = true
      }
    }
    if (any) params[name] = inner
  }
  for (const name of Object.keys(query)) {
    const entry = recordKeyOf(shape, name)
    const value = singleOf(query, name)
    if (entry === undefined || value === undefined) continue
    const [record, key] = entry
    const inner = (params[record] ??= {}) as Record<string, string>
    inner[key] = value
  }
  return params
}

/** The parameter names of the wire form, for the endpoint's declaration (OpenAPI, docs page). */
export const queryNames = (shape: QueryShape): ReadonlyArray<string> => [
  ...shape.singles,
  ...shape.lists,
  ...shape.nested.flatMap(([name, keys]) => [name, ...keys.map((k) => `${name}[${k}]`)]),
  ...shape.records.map((name) => `${name}[<key>]`)
]

const QueryValue = Schema.optional(Schema.Union([Schema.String, Schema.Array(Schema.String)]))

/** The endpoint's query declaration: every name optional and untyped; the engine decodes the values. */
export const queryDeclaration = (shape: QueryShape) => {
  const fields: Record<string, typeof QueryValue> = {}
  for (const name of queryNames(shape)) fields[name] = QueryValue
  return Schema.Struct(fields)
}

const escapePointer = (s: string): string => s.replace(/~/g, "~0").replace(/\//g, "~1")

/**
 * The engine reports list-parameter errors as for a body, below the resource key
 * (`/creditors/created_at/gte`, field `created_at.gte`, `status.1` for an array element); on a
 * query string the field is the parameter's name (`created_at[gte]`, `status`) and the pointer
 * names that parameter.
 */
export const asQueryErrors = <E>(error: E): E | ValidationFailed =>
  error instanceof ValidationFailed
    ? validationFailed(error.errors.map((e): FieldError => {
      const [head = "", ...rest] = e.field.split(".")
      const name = head + rest.filter((r) => !/^\d+$/.test(r)).map((r) => `[${r}]`).join("")
      return { ...e, field: name, request_pointer: `/${escapePointer(name)}` }
    }))
    : error
