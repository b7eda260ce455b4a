import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as gocardless from "gocardless-nodejs"

/** How the receiver answers its next request. */
export type Behaviour =
  | { readonly _tag: "status"; readonly status: number; readonly body?: string; readonly headers?: Record<string, string> }
  | { readonly _tag: "slow"; readonly delayMs: number }

export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly answered: number | "slow"
  /** Event ids the official client's `parse` gave, or the error it threw. */
  readonly parsed: ReadonlyArray<string> | Error
}

/**
 * A merchant's webhook receiver on 127.0.0.1: answers with the behaviours queued (then 200),
 * verifies each body with the official client's `parse`, and can go down and come back on its port.
 */
export const startReceiver = async (secret: string) => {
  const received: Array<Received> = []
  const queue: Array<Behaviour> = []
  const sockets = new Set<import("node:net").Socket>()
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      const behaviour = queue.shift() ?? { _tag: "status", status: 200 }
      let parsed: ReadonlyArray<string> | Error
      try {
        parsed = gocardless.parse(body, secret, String(request.headers["webhook-signature"])).map((e) => String(e.id))
      } catch (error) {
        parsed = error instanceof Error ? error : new Error(String(error))
      }
      received.push({ headers: request.headers, body, answered: behaviour._tag === "slow" ? "slow" : behaviour.status, parsed })
      if (behaviour._tag === "slow") {
        setTimeout(() => response.writeHead(200).end("late"), behaviour.delayMs).unref()
        return
      }
      response.writeHead(behaviour.status, behaviour.headers ?? {}).end(behaviour.body ?? "ok")
    })
  })
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  const listen = (port: number) => new Promise<number>((resolve) => server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)))
  const port = await listen(0)
  const close = () => new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy()
    server.close(() => resolve())
  })
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    /** Answers the next requests so, in order. */
    answer: (...behaviours: ReadonlyArray<Behaviour>) => void queue.push(...behaviours),
    /** Drops what was queued: 200 from now on. */
    healthy: () => void queue.splice(0),
    down: close,
    up: () => listen(port),
    close
  }
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>
