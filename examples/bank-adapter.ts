import { Effect, Layer, Stream } from "effect"
import { schemeFilesFor } from "@paykit/bank-files"
import { BankGateway, type BankReportFile, BankUnavailable, type Collector } from "@paykit/engine"

/**
 * A host-to-host bank adapter (docs/bank-rails.md): submissions uploaded to the bank's outbox
 * folder, reports collected from its inbox. SFTP has this shape as it is; EBICS (an upload order
 * per file, `C53`/`C54`/`Z01` downloads) and a Bacstel-IP bureau (its own folders) differ only in
 * the transport, which the host supplies as `FileTransfer` over its client library. The
 * synchronous members (payouts, instant payments, funds checks) come from `rest`.
 */
export interface FileTransfer {
  readonly exists: (path: string) => Promise<boolean>
  readonly upload: (path: string, bytes: AsyncIterable<Uint8Array>) => Promise<void>
  readonly list: (folder: string) => Promise<ReadonlyArray<string>>
  readonly download: (path: string) => AsyncIterable<Uint8Array>
  readonly move: (from: string, to: string) => Promise<void>
}

export interface HostToHostBankOptions {
  readonly transfer: FileTransfer
  /** Who collects each scheme at this bank: the service user number, creditor identifier or ACH company id, and the account. */
  readonly collectors: Readonly<Record<string, Collector>>
  readonly rest: BankGateway["Service"]
}

/** A transport call; its failure leaves the submission or the reports for the next daily run. */
const attempt = <A>(what: string, run: () => Promise<A>) =>
  Effect.tryPromise({ try: run, catch: (e) => new BankUnavailable({ message: `${what}: ${String(e)}` }) })

export const hostToHostBank = ({ transfer, collectors, rest }: HostToHostBankOptions): Layer.Layer<BankGateway> =>
  Layer.succeed(BankGateway, {
    ...rest,
    collector: (scheme) => collectors[scheme],
    submit: (submission) =>
      Effect.gen(function*() {
        // Named by the BS id: a file already there was sent before, so the same submission twice is one.
        const path = `outbox/${submission.id}.${schemeFilesFor(submission.scheme).submission.extension}`
        if (!(yield* attempt("exists", () => transfer.exists(path)))) {
          yield* attempt("upload", () => transfer.upload(path, Stream.toAsyncIterable(submission.file)))
        }
        return { reference: path }
      }),
    // The format is left to detection (the first bytes of each file); `taken` archives what the engine stored.
    reports: ({ organisation }) =>
      Effect.map(attempt("list", () => transfer.list(`inbox/${organisation}`)), (names) =>
        names.map((name): BankReportFile => ({
          name,
          file: Stream.orDie(Stream.fromAsyncIterable(transfer.download(`inbox/${organisation}/${name}`), (e) => new BankUnavailable({ message: String(e) }))),
          taken: attempt("archive", () => transfer.move(`inbox/${organisation}/${name}`, `archive/${organisation}/${name}`))
        })))
  })
