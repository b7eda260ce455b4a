import { Schema } from "effect"
import { type FieldError, fieldError } from "@paykit/core"

/**
 * Cross-field rules. A rule looks at an already decoded value and returns every problem it finds
 * (never just the first), each at the path of the field to blame. Rules stay plain functions so
 * they can be tested and reused on their own; `withRules` attaches them to a request Schema so
 * that one `decodeInput` reports field and cross-field failures alike.
 */

export interface RuleIssue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

export type Rule<A> = (value: A) => ReadonlyArray<RuleIssue>

export const issue = (path: ReadonlyArray<PropertyKey>, message: string): RuleIssue => ({ path, message })

/** Every issue of every rule, in rule order. */
export const runRules = <A>(rules: ReadonlyArray<Rule<A>>) => (value: A): ReadonlyArray<RuleIssue> =>
  rules.flatMap((rule) => rule(value))

/** Issues as the error items of a `ValidationFailed` below the resource key `root`. */
export const toFieldErrors = (root: string, issues: ReadonlyArray<RuleIssue>): ReadonlyArray<FieldError> =>
  issues.map((i) => fieldError(root, i.path, i.message))

/** Moves issues found on a nested value below `prefix`. */
export const under = (prefix: ReadonlyArray<PropertyKey>, issues: ReadonlyArray<RuleIssue>): ReadonlyArray<RuleIssue> =>
  issues.map((i) => ({ path: [...prefix, ...i.path], message: i.message }))

/**
 * The schema with the rules as one more check. Schema runs checks only once the fields decode,
 * so a request reports its field errors first and, once they are fixed, all its cross-field ones.
 */
export const withRules = <S extends Schema.Top>(schema: S, rules: ReadonlyArray<Rule<S["Type"]>>) =>
  schema.check(
    Schema.makeFilter((value: S["Type"]) =>
      runRules(rules)(value).map((i) => ({ path: i.path, issue: i.message }))
    )
  )

/**
 * A validator whose rules depend on a value that changes rarely (today's date): it is built once
 * per value, not per call. Building one compiles its Schema's parser, several times the cost of a
 * decode; the last value's validator is kept.
 */
export const perValue = <C, V>(build: (value: C) => V): (value: C) => V => {
  let built: { readonly value: C; readonly validator: V } | undefined
  return (value) => {
    if (built === undefined || built.value !== value) built = { value, validator: build(value) }
    return built.validator
  }
}
