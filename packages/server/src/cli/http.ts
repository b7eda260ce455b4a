/**
 * One HTTP exchange for the commands that speak to a server (`api.ts`) or forward to a receiver
 * (`listen`), over `node:http` (`node:https` loaded only for an https URL): Node's `fetch` loads
 * its HTTP client on first use, which costs a command a tenth of a second or more before its first
 * output. No connection is kept: a command makes a few requests, and an idle pooled socket would
 * hold the process open.
 */

/**
 * `node:http` as its CommonJS object: `import ... from "node:http"` builds an ES module facade of
 * every export, and reading node:http's lazy ones loads that same client (about 80 ms here).
 */
export const nodeHttp = process.getBuiltinModule("node:http")

export interface HttpAnswer {
  readonly status: number
  readonly body: string
  /** The body's bytes as they came (a bank file is served as its exact bytes). */
  readonly bytes: Buffer
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
}

export interface HttpCall {
  readonly method: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | Uint8Array
  /** How long the answer may take, from the request's start; none when absent. */
  readonly timeoutMs?: number
}

export const exchange = (url: string, call: HttpCall): Promise<HttpAnswer> => {
  const target = new URL(url)
  const send = target.protocol === "https:" ? process.getBuiltinModule("node:https").request : nodeHttp.request
  return new Promise((resolve, reject) => {
    const outgoing = send(target, { method: call.method, headers: call.headers, agent: false }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => {
        clearTimeout(timer)
        const bytes = Buffer.concat(chunks)
        resolve({ status: response.statusCode ?? 0, body: bytes.toString("utf8"), bytes, headers: response.headers })
      })
      response.on("error", reject)
    })
    const timer = call.timeoutMs === undefined ? undefined : setTimeout(() => outgoing.destroy(new Error(`no answer within ${call.timeoutMs} ms`)), call.timeoutMs)
    outgoing.on("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    outgoing.end(call.body)
  })
}
