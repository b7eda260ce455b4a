import type { RequestCapture, RequestLogQuery, RequestLogRecord } from "@paykit/http/stored-log"

/** What the server's thread asks of the request log's thread: the store's operations and its end. */
export type ThreadRequest =
  | { readonly op: "captured"; readonly captures: ReadonlyArray<RequestCapture> }
  | { readonly op: "records"; readonly records: ReadonlyArray<RequestLogRecord> }
  | { readonly op: "list"; readonly organisation: string; readonly query: RequestLogQuery }
  | { readonly op: "find"; readonly organisation: string; readonly requestId: string }
  | { readonly op: "removeOrganisation"; readonly organisation: string }
  | { readonly op: "prune"; readonly organisation: string; readonly before: string; readonly limit: number }
  | { readonly op: "close" }

export interface ThreadMessage {
  readonly id: number
  readonly request: ThreadRequest
}

/** The answer to one message: its value, or why it failed (the error's text: errors do not cross threads whole). */
export type ThreadReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string }

/** How the thread's database opens: a data directory, or in memory. */
export interface ThreadOptions {
  readonly dataDir: string | undefined
}

/** The thread's `workerData`: its options and, from the sources, the entry the bootstrap loads. */
export interface ThreadData {
  readonly options: ThreadOptions
  readonly entry?: string
}
