import { Effect, Layer } from "effect"
import { BankGateway, type Collector } from "../kernel/ports/bank-gateway.ts"
import { NameVerifier } from "../kernel/ports/name-verifier.ts"
import { SANDBOX_COLLECTORS, sandboxBank, sandboxNameVerifier } from "./sandbox-bank.ts"

/**
 * The files bank: a bank connection made of files that people (or a script) carry. Each day's
 * submissions are written as scheme files and kept by the engine (`BankSubmissions.file`, `GET
 * /bank_submissions/{id}/file`), for someone to hand to the bank; outcomes come only from the
 * reports they post back (`BankReports.receive`, `POST /bank_reports`). Nothing is invented: it
 * makes no report of its own, so a collection no report fails is confirmed by its scheme's
 * settlement rule alone (docs/bank-rails.md, "The files bank").
 *
 * The port's synchronous calls (payouts, outbound and instant payments, funds checks) and
 * confirmation of payee have no files: they are answered by `rest`.
 */
export interface FilesBankOptions {
  /** Who collects under each scheme: the name, identifier and account a file is written under (a creditor's own active identifier wins). */
  readonly collectors: Readonly<Record<string, Collector>>
  /** The bank that answers what has no file. */
  readonly rest: BankGateway["Service"]
}

export const filesBank = (options: FilesBankOptions): BankGateway["Service"] =>
  BankGateway.of({
    collector: (scheme) => options.collectors[scheme],
    // Nobody has taken the file yet: it waits to be downloaded.
    submit: () => Effect.succeed({ reference: null }),
    // Reports are posted; the bank itself has none to collect.
    reports: () => Effect.succeed([]),
    submitOutboundPayment: options.rest.submitOutboundPayment,
    sendPayout: options.rest.sendPayout,
    authoriseInstantPayment: options.rest.authoriseInstantPayment,
    checkFunds: options.rest.checkFunds
  })

/**
 * The files bank of a server's `PAYKIT_BANK=files`: files written under the sandbox's collectors
 * (where a creditor has no active scheme identifier of its own), and what has no file answered
 * by the sandbox bank and its name verifier.
 */
export const FilesBank: Layer.Layer<BankGateway | NameVerifier> = Layer.mergeAll(
  Layer.succeed(BankGateway, filesBank({ collectors: SANDBOX_COLLECTORS, rest: sandboxBank })),
  Layer.succeed(NameVerifier, sandboxNameVerifier)
)
