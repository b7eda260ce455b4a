import { Effect } from "effect"
import { creditorBankAccountVerificationMachine, creditorVerificationMachine } from "@paykit/machines"
import type { DailyItems } from "../due-work/daily-items.ts"
import { idOfVersioned } from "../due-work/daily-items.ts"
import { applyTransition } from "../kernel/support.ts"
import type { Creditor } from "./domain/creditors.ts"
import type { CreditorStores } from "./repositories.ts"

/** The review's approval of a creditor, on the daily run and in the scenario simulators. */
export const CREDITOR_VERIFIED = { origin: "gocardless", cause: "creditor_verification_successful", description: "The creditor has been verified." } as const

/** The review's verification of a creditor bank account. */
const BANK_ACCOUNT_VERIFIED = { origin: "gocardless", cause: "creditor_bank_account_verification_successful" } as const

/**
 * The creditors feature's due work on the daily run: the review of submitted verification details
 * completes. Each bank account awaiting review is verified by its machine (no event), then each creditor in review is
 * approved by its machine (`updated`). Each account and each creditor is its own unit of work.
 */
export const completeReviews = (stores: CreditorStores, eachItem: DailyItems, organisation: string) =>
  Effect.gen(function*() {
    const done: Array<Creditor> = []
    const accountsInReview = (yield* stores.accounts.scan(organisation, {})).filter((a) => a.resource.verification_status === "in_review")
    yield* eachItem("creditor bank account reviews", organisation, accountsInReview, idOfVersioned, (current) =>
      applyTransition(stores.accounts, {
        organisation,
        machine: creditorBankAccountVerificationMachine,
        current,
        event: "approve",
        context: {},
        cause: BANK_ACCOUNT_VERIFIED,
        links: { creditor: current.resource.links.creditor, creditor_bank_account: current.resource.id }
      }))
    const creditorsInReview = (yield* stores.creditors.scan(organisation, {})).filter((c) => c.resource.verification_status === "in_review")
    yield* eachItem("creditor reviews", organisation, creditorsInReview, idOfVersioned, (current) =>
      Effect.map(
        applyTransition(stores.creditors, {
          organisation,
          machine: creditorVerificationMachine,
          current,
          event: "approve",
          context: {},
          cause: CREDITOR_VERIFIED,
          links: { creditor: current.resource.id }
        }),
        (approved) => done.push(approved)
      ))
    return done
  })
