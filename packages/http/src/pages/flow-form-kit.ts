import type { BillingRequest, BillingRequestFlow } from "@paykit/engine"
import { type Html, html, type HtmlValue } from "./html.ts"
import { formGuard, type PageRequest } from "./page-kit.ts"
import type { FlowStep } from "./flow-steps.ts"
import type { Messages } from "./messages/en.ts"

/**
 * The forms of the flow pages, one per step. A form carries the payer's answers, the CSRF token,
 * the language and the step it answers (checked against the step the billing request is at);
 * never an amount or an id the page can look up. Values shown are the payer's last answers, else
 * what the billing request holds, else the flow's prefilled ones.
 */

/** What a refused post said, shown above the form again with the payer's answers. */
export interface Problem {
  readonly field: string
  readonly message: string
}

export interface FormInput {
  readonly values: Readonly<Record<string, string>>
  readonly problems: ReadonlyArray<Problem>
}

export const NO_INPUT: FormInput = { values: {}, problems: [] }

/** What every step's form is given. */
export interface StepForm {
  readonly p: PageRequest
  readonly token: string
  readonly request: BillingRequest
  readonly flow: BillingRequestFlow
  readonly input: FormInput
}

/** The form's input a problem is about: the last name of its path in the API's body (`customer.email`). */
const inputOf = (problem: Problem): string => problem.field.split(".").at(-1) ?? problem.field

/** The id of a problem's line, which its input is described by. */
const problemId = (name: string): string => `problem-${name}`

/** The accounts' labels are the bank page's; the rest are the flow's (`flow_<name>`). */
const ACCOUNT_LABELS: Readonly<Record<string, keyof Messages>> = {
  account_holder_name: "bank_account_holder",
  branch_code: "bank_branch_code",
  account_number: "bank_account_number"
}

/** A field's label in the page's language; the API's name only for a field no form shows. */
export const labelOf = (messages: Messages, name: string): string => {
  const key = ACCOUNT_LABELS[name] ?? `flow_${name}`
  return key in messages ? messages[key as keyof Messages] : name
}

/** The engine's rules speak English: other languages say which answer to check. */
const problemText = (p: PageRequest, problem: Problem): string => p.language === "en" ? problem.message : p.messages.flow_field_check

const problemList = (p: PageRequest, problems: ReadonlyArray<Problem>): HtmlValue =>
  problems.length === 0 ? "" : html`<div role="alert" class="problems"><p>${p.messages.flow_errors}</p><ul>${
    problems.map((problem) => html`<li id="${problemId(inputOf(problem))}">${labelOf(p.messages, inputOf(problem))}: ${problemText(p, problem)}</li>`)
  }</ul></div>`

interface InputOptions {
  readonly required?: boolean
  readonly autocomplete?: string
  readonly type?: string
  readonly inputmode?: string
  /** The id of a hint the input is described by. */
  readonly describedBy?: string
}

export const field = (form: StepForm, name: string, label: string, value: string, options: InputOptions = {}): Html => {
  const invalid = form.input.problems.some((problem) => inputOf(problem) === name)
  // An invalid input is described by its problem's line first, then by its hint.
  const describedBy = [...(invalid ? [problemId(name)] : []), ...(options.describedBy === undefined ? [] : [options.describedBy])].join(" ")
  return html`<label for="${name}">${label}</label>
<input id="${name}" name="${name}" value="${value}" type="${options.type ?? "text"}"${options.required === true ? html` required` : ""}${
    options.autocomplete === undefined ? "" : html` autocomplete="${options.autocomplete}"`
  }${options.inputmode === undefined ? "" : html` inputmode="${options.inputmode}"`}${
    describedBy === "" ? "" : html` aria-describedby="${describedBy}"`
  }${invalid ? html` aria-invalid="true"` : ""}>`
}

export const stepForm = (form: StepForm, step: FlowStep, body: HtmlValue, button: string): Html => html`${problemList(form.p, form.input.problems)}
<form method="post" action="${form.p.href}">
${formGuard(form.p, form.token)}<input type="hidden" name="step" value="${step}">
${body}
<div class="actions"><button type="submit" class="primary">${button}</button></div>
</form>`

