import { SANDBOX_AMOUNT_ENDINGS, SANDBOX_NAMES } from "@paykit/engine"
import { type Html, html } from "./pages/html.ts"

/**
 * The sandbox bank's test values, from its own constants (docs/test-values.md has the whole
 * table): one rendering, shown on `/docs#test-values` and on the dashboard's `/dashboard/test-values`.
 */

const TEST_VALUES: ReadonlyArray<readonly [input: string, outcome: string]> = [
  [`amount ending in ${SANDBOX_AMOUNT_ENDINGS.failure}, or holder name containing "${SANDBOX_NAMES.failure}"`, "the payment fails on its charge date"],
  [`amount ending in ${SANDBOX_AMOUNT_ENDINGS.lateFailure}, or holder name containing "${SANDBOX_NAMES.lateFailure}"`, "the payment is paid out, then fails 3 business days after its charge date"],
  [`amount ending in ${SANDBOX_AMOUNT_ENDINGS.chargeback}, or holder name containing "${SANDBOX_NAMES.chargeback}"`, "the payment is paid out, then charged back 5 business days after its charge date"],
  [`holder name containing "${SANDBOX_NAMES.mandateFailure}"`, "the mandate fails at submission"],
  [`creditor name containing "${SANDBOX_NAMES.payoutBounce}"`, "the creditor's first payout bounces"]
]

/** What the inputs do, and the table of them: the section's content under its heading. */
export const testValuesContent = (): Html =>
  html`<p>In sandbox mode these inputs choose the bank's answer (the whole table is <code>docs/test-values.md</code> in the repository); the event of each outcome they cause ends its <code>details.description</code> with <code>(sandbox test value: ...)</code>.</p>
<table><caption>Sandbox test values</caption><thead><tr><th scope="col">Input</th><th scope="col">Outcome</th></tr></thead><tbody>${
    TEST_VALUES.map(([input, outcome]) => html`<tr><td>${input}</td><td>${outcome}</td></tr>`)
  }</tbody></table>`
