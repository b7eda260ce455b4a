import { Effect } from "effect"
import { serverConfig } from "./config.ts"
import { appOptionsOf, createPaykitApp } from "./paykit-app.ts"
import type { WorkerMessage } from "./worker-process.ts"

/**
 * The worker process's program (`dueWork: "worker-process"`, forked by `startWorkerProcess`):
 * paykit configured by the environment, running the due-work worker and the webhook pump until
 * the host says `stop` or goes away (the IPC channel closes), then closing.
 */

const send = (message: WorkerMessage) => {
  if (process.connected) process.send?.(message)
}

const run = async () => {
  const config = await Effect.runPromise(serverConfig)
  const app = await createPaykitApp({
    ...appOptionsOf(config, config.publicUrl ?? "http://localhost"),
    log: (line) => send({ line }),
    requestLog: () => {}
  })
  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= app.close().finally(() => process.exit(0))
  }
  process.on("message", (message) => {
    if (message === "stop") stop()
  })
  process.once("disconnect", stop)
  send({ ready: true, metricsUrl: app.metricsUrl })
}

run().catch((error: unknown) => {
  send({ failed: error instanceof Error ? error.message : String(error) })
  process.exit(1)
})
