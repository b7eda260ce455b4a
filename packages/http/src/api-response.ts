/**
 * What an API endpoint answers: a status, the JSON body already serialised, and the headers of its
 * own (`Location`, rate-limit fields). The dispatcher adds `Content-Type`, `Content-Length` and
 * the request id when it writes it. Serialised once, here: nothing downstream parses a body back.
 */
export interface ApiResponse {
  readonly status: number
  readonly body: string
  readonly headers: Readonly<Record<string, string>>
  /** The resource a creation made: idempotency names it when a reused key conflicts. */
  readonly resourceId?: string
  /** A binary answer (a page's image), written in place of `body`; only pages, never the API, answer one. */
  readonly bytes?: Uint8Array
}

const NO_HEADERS: Readonly<Record<string, string>> = {}

export const jsonResponse = (status: number, value: unknown, headers: Readonly<Record<string, string>> = NO_HEADERS): ApiResponse => ({
  status,
  body: JSON.stringify(value),
  headers
})

/** 200 with `value` as the body. */
export const ok = (value: unknown): ApiResponse => jsonResponse(200, value)

/** 201 with the resource under its key and `Location` naming it. */
export const created = (key: string, resource: { readonly id: string }): ApiResponse => ({
  status: 201,
  body: JSON.stringify({ [key]: resource }),
  headers: { location: `/${key}/${resource.id}` },
  resourceId: resource.id
})

export const withHeaders = (response: ApiResponse, headers: Readonly<Record<string, string>>): ApiResponse => ({
  ...response,
  headers: { ...response.headers, ...headers }
})

export const JSON_CONTENT_TYPE = "application/json"

