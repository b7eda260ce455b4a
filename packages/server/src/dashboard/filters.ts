import { Schema, SchemaAST } from "effect"
import { ID_PREFIXES } from "@paykit/core"
import { type Html, html, type QueryValues, type Route } from "@paykit/http"
import type { Visit } from "./visit.ts"

/**
 * A list page's filters, read from the API's own list route: the parameters its declaration takes
 * (so the form offers nothing the API refuses), each a select of the values the API's resource
 * Schema allows where the parameter names a field with a fixed set of values (`status`,
 * `currency`, `scheme`), a text field for an id where it names one of the resource's links
 * (`mandate`) or a kind of resource (`customer`). Paging, ordering and ranges are not filters.
 */

export interface ListFilter {
  readonly name: string
  /** The values it may take; absent for an id. */
  readonly values?: ReadonlyArray<string>
}

const PAGING = new Set(["limit", "after", "before"])

const propertiesOf = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.PropertySignature> => {
  const type = SchemaAST.toType(ast)
  return SchemaAST.isObjects(type) ? type.propertySignatures : []
}

const propertyOf = (ast: SchemaAST.AST, name: string): SchemaAST.AST | undefined => propertiesOf(ast).find((p) => p.name === name)?.type

/** The literal values of a field typed as a set of them (`null` left out), or undefined for any other type. */
const literalsOf = (ast: SchemaAST.AST | undefined): ReadonlyArray<string> | undefined => {
  if (ast === undefined) return undefined
  const type = SchemaAST.toType(ast)
  const members = SchemaAST.isUnion(type) ? type.types.map(SchemaAST.toType) : [type]
  const values = members.filter(SchemaAST.isLiteral).map((m) => m.literal).filter((v): v is string => typeof v === "string")
  const others = members.filter((m) => !SchemaAST.isLiteral(m) && !SchemaAST.isNull(m))
  return values.length > 0 && others.length === 0 ? values : undefined
}

/** The resource a list answers, from its success Schema: the items under the list's key. */
const itemOf = (route: Route, key: string): SchemaAST.AST | undefined => {
  for (const success of route.success as ReadonlyArray<Schema.Top>) {
    const list = propertyOf(success.ast, key)
    const type = list === undefined ? undefined : SchemaAST.toType(list)
    if (type !== undefined && SchemaAST.isArrays(type) && type.rest[0] !== undefined) return type.rest[0]
  }
  return undefined
}

/** The filters of `GET /<key>` as its route declares and answers them. */
export const listFiltersOf = (route: Route, key: string): ReadonlyArray<ListFilter> => {
  // Every endpoint holds its query Schema (`HttpApiEndpoint`'s `query`); the route's type names only what routing reads.
  const query: unknown = Reflect.get(route.declared, "query")
  if (!Schema.isSchema(query)) return []
  const item = itemOf(route, key)
  const links = item === undefined ? undefined : propertyOf(item, "links")
  return propertiesOf(query.ast).flatMap((p): ReadonlyArray<ListFilter> => {
    const name = String(p.name)
    if (PAGING.has(name) || name.includes("[")) return []
    const values = literalsOf(p.type) ?? literalsOf(item === undefined ? undefined : propertyOf(item, name))
    if (values !== undefined) return [{ name, values }]
    // An id: of a resource the rows link, or of a kind of resource (a payment's customer, through its mandate).
    return (links !== undefined && propertyOf(links, name) !== undefined) || Object.hasOwn(ID_PREFIXES, name) ? [{ name }] : []
  })
}

const valueOf = (query: QueryValues, name: string): string => {
  const value = query[name]
  return typeof value === "string" ? value : ""
}

/** The filter form: a select or an id field per filter, named as the API's parameters; the page's other parameters kept. */
export const filterForm = (visit: Visit, collection: string, filters: ReadonlyArray<ListFilter>, query: QueryValues): Html => {
  if (filters.length === 0) return html``
  const names = filters.map((f) => f.name)
  const kept = Object.keys(query).filter((key) => !names.includes(key) && key !== "after" && key !== "before")
  return html`<form class="filters" method="get" action="${visit.root}/resources/${collection}" aria-label="Filters">${
    kept.map((key) => html`<input type="hidden" name="${key}" value="${valueOf(query, key)}">`)
  }${filters.map((filter) => html`<span><label for="f-${filter.name}">${filter.name}</label>${
    filter.values === undefined
      ? html`<input id="f-${filter.name}" name="${filter.name}" value="${valueOf(query, filter.name)}" pattern="[A-Z0-9]+" size="18">`
      : html`<select id="f-${filter.name}" name="${filter.name}"><option value="">any</option>${
        filter.values.map((v) => html`<option value="${v}"${valueOf(query, filter.name) === v ? html` selected` : ""}>${v}</option>`)
      }</select>`
  }</span>`)}<button class="secondary" type="submit">Filter</button></form>`
}
