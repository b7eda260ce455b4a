/**
 * One server of `bench/http.bench.ts` in a process of its own: `SERVER_KINDS` names it on the
 * command line; it reports its address, headers and outbound payment body to the parent over IPC
 * and stops when told to.
 */
import { SERVER_KINDS, startServer } from "./http-servers.ts"

const kind = SERVER_KINDS.find((k) => k === process.argv[2])
if (kind === undefined || process.send === undefined) {
  console.error(`usage: forked by bench/http.bench.ts with one of ${SERVER_KINDS.join(", ")}`)
  process.exit(2)
}
const server = await startServer(kind)
process.send({ url: server.url, headers: server.headers, outboundBody: server.outboundBody })
process.on("message", (message) => {
  if (message === "close") void server.close().then(() => process.exit(0))
})
