import type { BillingRequest, BillingRequestFlow } from "@paykit/engine"
import { type Html, html, type HtmlValue } from "./html.ts"
import { formGuard, type PageRequest } from "./page-kit.ts"
import type { FlowStep } from "./flow-steps.ts"

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

const problemList = (p: PageRequest, problems: ReadonlyArray<Problem>): HtmlValue =>
  problems.length === 0 ? "" : html`<div role="alert" class="problems"><p>${p.messages.flow_errors}</p><ul>${
    problems.map((problem) => html`<li>${problem.field}: ${problem.message}</li>`)
  }</ul></div>`

interface InputOptions {
  readonly required?: boolean
  readonly autocomplete?: string
  readonly type?: string
  readonly inputmode?: string
  /** The id of a hint the input is described by. */
  readonly describedBy?: string
}

export const field = (form: StepForm, name: string, label: string, value: string, options: InputOptions = {}): Html => html`<label for="${name}">${label}</label>
<input id="${name}" name="${name}" value="${value}" type="${options.type ?? "text"}"${options.required === true ? html` required` : ""}${
  options.autocomplete === undefined ? "" : html` autocomplete="${options.autocomplete}"`
}${options.inputmode === undefined ? "" : html` inputmode="${options.inputmode}"`}${
  options.describedBy === undefined ? "" : html` aria-describedby="${options.describedBy}"`
}${
  // A field error names the field by its path in the API's body (`customer.email`).
  form.input.problems.some((problem) => problem.field === name || problem.field.endsWith(`.${name}`)) ? html` aria-invalid="true"` : ""
}>`

export const stepForm = (form: StepForm, step: FlowStep, body: HtmlValue, button: string): Html => html`${problemList(form.p, form.input.problems)}
<form method="post" action="${form.p.path}">
${formGuard(form.p, form.token)}<input type="hidden" name="step" value="${step}">
${body}
<div class="actions"><button type="submit" class="primary">${button}</button></div>
</form>`

