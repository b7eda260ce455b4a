import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { MACHINES } from "@paykit/machines"
import ts from "typescript"
import { describe, expect, it } from "vitest"

/**
 * Machines are the only writer of status. The type checker reads every source file of the
 * engine, the http package and the server and finds every way code could set the status of a
 * resource of a machine (a type assignable to the resource's) outside the machine functions:
 *  - an object literal that sets `status` (`{ ...payment, status: "confirmed" }`), or spreads, after
 *    its first property, an object with a `status` (`{ ...payment, ...changes }`); a `status` the
 *    machine's `createdState` gives (a store that keeps no history making a resource) is the machine's;
 *  - an assignment to a resource's `status` (`payment.status = "confirmed"`, `Object.assign(p, {status})`);
 *  - a direct `emit`/`emitAll` of a status event: an API event a machine's table emits for its
 *    resource type (`payments` `confirmed`), which only the history entry of a move may give;
 *  - an SQL `UPDATE` that sets the status of a table the server keeps a machine's resources in
 *    (access tokens, OAuth apps), which only the store's move, deciding by the machine, may run.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")
const ENGINE_SRC = join(ROOT, "packages/engine/src")

/** The packages whose sources are scanned; each exports the types of its machines' resources from `src/index.ts`. */
const PACKAGES = ["engine", "http", "server"] as const
type Package = (typeof PACKAGES)[number]

/**
 * The stored resource of each machine: the package exporting its type, and the type. Read from the
 * package's entry point, not a file: where a room's files move, the scan still finds the type.
 */
const RESOURCE_OF_MACHINE: Readonly<Record<string, readonly [pkg: Package, type: string]>> = {
  outbound_payments: ["engine", "OutboundPayment"],
  outbound_payment_imports: ["engine", "OutboundPaymentImport"],
  payouts: ["engine", "Payout"],
  payer_authorisations: ["engine", "PayerAuthorisation"],
  subscriptions: ["engine", "Subscription"],
  mandates: ["engine", "Mandate"],
  payments: ["engine", "Payment"],
  refunds: ["engine", "Refund"],
  bank_authorisations: ["engine", "BankAuthorisation"],
  billing_requests: ["engine", "BillingRequest"],
  creditors: ["engine", "Creditor"],
  instalment_schedules: ["engine", "InstalmentSchedule"],
  mandate_imports: ["engine", "MandateImport"],
  webhook_deliveries: ["engine", "WebhookDelivery"],
  creditor_bank_accounts: ["engine", "CreditorBankAccount"],
  scheme_identifiers: ["engine", "SchemeIdentifier"],
  bank_account_holder_verifications: ["engine", "BankAccountHolderVerification"],
  access_tokens: ["http", "AccessTokenRecord"],
  oauth_apps: ["server", "OAuthApp"]
}

/** The SQL tables the server keeps a machine's resources in, by machine (the engine's go through its repositories). */
const SQL_TABLE_OF_MACHINE: Readonly<Record<string, string>> = { access_tokens: "access_tokens", oauth_apps: "oauth_apps" }

/** The fields machines keep their state in: `status`, and a creditor's `verification_status` (its machine's `field`). */
const STATE_FIELDS: ReadonlySet<string> = new Set(["status", "verification_status"])
const hasStateField = (type: ts.Type): boolean => [...STATE_FIELDS].some((f) => type.getProperty(f) !== undefined)

/**
 * The machine functions, the only places a status is written: `file:function`. The billing
 * request's step applies its machine's own `applyBillingRequestEvent`, which moves its actions
 * with its status.
 */
const MACHINE_FUNCTIONS = new Set([
  "packages/engine/src/kernel/support.ts:transitionOf",
  "packages/engine/src/kernel/support.ts:creationOf",
  "packages/engine/src/billing-requests/billing-request-steps.ts:stepBillingRequest",
  // The stores that keep no history apply the state their machine's `stateAfter` gives.
  "packages/http/src/access-tokens.ts:tokenAfter",
  "packages/server/src/oauth/store.ts:appAfter"
])

/**
 * The server's SQL stores reading rows back into records: the stored status, unchanged (the
 * engine's repositories decode theirs with a Schema, which the scan does not see as a write).
 */
const STORE_READS = new Set([
  "packages/server/src/sql-access-tokens.ts:findByHash",
  // findByHash's record of the row read, at the clock read with it (on Citus, read apart).
  "packages/server/src/sql-access-tokens.ts:recordAt",
  "packages/server/src/oauth/store.ts:appOf"
])

/** The stores' moves, the only SQL that changes the status of a table of `SQL_TABLE_OF_MACHINE`. */
const SQL_MOVES = new Set([
  "packages/server/src/sql-access-tokens.ts:move",
  "packages/server/src/oauth/store.ts:moveApp"
])

/**
 * Functions that emit an event a machine's table also emits, for a change that is not a move: the
 * real API sends `creditors.updated` for any change of a creditor's details as well as when its
 * verification review ends (the verification machine's `approve` and `require_action`).
 */
const SHARED_EVENT_EMITTERS = new Set(["packages/engine/src/creditors/update-creditor.ts:updateCreditor"])

/** Every source file of a package; `testing` folders build stored rows on purpose, to test stores. */
const sourcesOf = (pkg: string): Array<string> =>
  readdirSync(join(ROOT, "packages", pkg, "src"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.split("/").includes("testing"))
    .map((f) => join(ROOT, "packages", pkg, "src", f))

const programOf = (files: ReadonlyArray<string>): ts.Program => {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"))
    }
  })
  if (config === undefined) throw new Error("tsconfig.json could not be read")
  return ts.createProgram({ rootNames: files, options: config.options })
}

/** The name of the function an expression is written in: the nearest declared function. */
const enclosingFunction = (node: ts.Node): string => {
  for (let n: ts.Node | undefined = node.parent; n !== undefined; n = n.parent) {
    if (ts.isFunctionDeclaration(n) && n.name !== undefined) return n.name.text
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer !== undefined &&
      (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))) return n.name.text
    if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))) {
      return n.name.text
    }
  }
  return "(module)"
}

const isStatusName = (name: ts.Node): boolean => (ts.isIdentifier(name) || ts.isStringLiteral(name)) && STATE_FIELDS.has(name.text)

/** `status: createdState(machine, state)`: the state a machine makes a resource in, checked by the machine. */
const isCreatedState = (p: ts.ObjectLiteralElementLike): boolean =>
  ts.isPropertyAssignment(p) && ts.isCallExpression(p.initializer) && p.initializer.expression.getText() === "createdState"

/** Whether a literal writes `status`: by a property, or by a spread (not its first property) of an object that has one. */
const setsStatus = (checker: ts.TypeChecker, literal: ts.ObjectLiteralExpression): boolean =>
  literal.properties.some((p, i) =>
    ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && isStatusName(p.name) && !isCreatedState(p)) ||
    (ts.isSpreadAssignment(p) && i > 0 && hasStateField(checker.getTypeAtLocation(p.expression))))

/** The `status` of a resource written by assignment: `x.status = ...`, `x["status"] = ...`. */
const assignedStatusOwner = (node: ts.Node): ts.Expression | undefined => {
  if (!ts.isBinaryExpression(node) || node.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return undefined
  const target = node.left
  if (ts.isPropertyAccessExpression(target) && STATE_FIELDS.has(target.name.text)) return target.expression
  if (ts.isElementAccessExpression(target) && isStatusName(target.argumentExpression)) return target.expression
  return undefined
}

/** `Object.assign(target, ...sources)` where a source sets `status`: its target. */
const objectAssignTarget = (checker: ts.TypeChecker, node: ts.Node): ts.Expression | undefined => {
  if (!ts.isCallExpression(node) || node.expression.getText() !== "Object.assign") return undefined
  const [target, ...sources] = node.arguments
  return sources.some((s) => hasStateField(checker.getTypeAtLocation(s))) ? target : undefined
}

const where = (file: string, source: ts.SourceFile, node: ts.Node): string =>
  `${relative(ROOT, file)}:${enclosingFunction(node)} (line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1})`

/** Visits every node of every file. */
const eachNode = (program: ts.Program, files: ReadonlyArray<string>, visitor: (node: ts.Node, file: string, source: ts.SourceFile) => void): void => {
  for (const file of files) {
    const source = program.getSourceFile(file)
    if (source === undefined) throw new Error(`${file} is not in the program`)
    const visit = (node: ts.Node): void => {
      visitor(node, file, source)
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
}

/** `file:function (line n)` of every write of `status` on a resource of a machine. */
const statusWrites = (program: ts.Program, files: ReadonlyArray<string>, resources: ReadonlyArray<ts.Type>): Array<string> => {
  const checker = program.getTypeChecker()
  const isResource = (node: ts.Node): boolean => {
    const type = checker.getTypeAtLocation(node)
    return resources.some((r) => checker.isTypeAssignableTo(type, r))
  }
  const found: Array<string> = []
  eachNode(program, files, (node, file, source) => {
    const owner = assignedStatusOwner(node) ?? objectAssignTarget(checker, node)
    const literal = ts.isObjectLiteralExpression(node) && setsStatus(checker, node)
    if ((literal && isResource(node)) || (owner !== undefined && isResource(owner))) found.push(where(file, source, node))
  })
  return found
}

/** The string values a type allows; undefined when it allows any string. */
const typeValues = (type: ts.Type | undefined): ReadonlyArray<string> | undefined => {
  if (type === undefined) return undefined
  const members = type.isUnion() ? type.types : [type]
  return members.every((m) => m.isStringLiteral()) ? members.map((m) => (m as ts.StringLiteralType).value) : undefined
}

/** The string values an expression can have (literals, and both branches of a conditional); undefined when any string. */
const expressionValues = (checker: ts.TypeChecker, node: ts.Expression): ReadonlyArray<string> | undefined => {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text]
  if (ts.isParenthesizedExpression(node)) return expressionValues(checker, node.expression)
  if (ts.isConditionalExpression(node)) {
    const whenTrue = expressionValues(checker, node.whenTrue)
    const whenFalse = expressionValues(checker, node.whenFalse)
    return whenTrue === undefined || whenFalse === undefined ? undefined : [...whenTrue, ...whenFalse]
  }
  return typeValues(checker.getTypeAtLocation(node))
}

/** The API events each machine's table emits, by resource type. */
const STATUS_EVENTS: ReadonlyMap<string, ReadonlySet<string>> = new Map(MACHINES.map((m) => [
  m.name,
  new Set([...(m.created === null ? [] : [m.created]), ...m.transitions.flatMap((t) => (t.emits === null ? [] : [t.emits]))])
]))

/**
 * A draft's values of `name`: read from the literal's initializer when the draft is written out,
 * else from its type; undefined when any string.
 */
const draftValues = (checker: ts.TypeChecker, draft: ts.Expression, name: string): ReadonlyArray<string> | undefined => {
  if (ts.isObjectLiteralExpression(draft)) {
    const property = draft.properties.find((p) => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name)
    if (property !== undefined && ts.isPropertyAssignment(property)) return expressionValues(checker, property.initializer)
  }
  const symbol = checker.getTypeAtLocation(draft).getProperty(name)
  return symbol === undefined ? undefined : typeValues(checker.getTypeOfSymbolAtLocation(symbol, draft))
}

/** Whether a draft may be a status event: a machine's resource type with an action its table emits (or any action). */
const mayBeStatusEvent = (checker: ts.TypeChecker, draft: ts.Expression): boolean => {
  const types = draftValues(checker, draft, "resource_type") ?? [...STATUS_EVENTS.keys()]
  const actions = draftValues(checker, draft, "action")
  return types.some((type) => {
    const emitted = STATUS_EVENTS.get(type)
    return emitted !== undefined && (actions === undefined || actions.some((a) => emitted.has(a)))
  })
}

/** The drafts an `emit`/`emitAll` call appends: the draft, the array literal's elements, or the array (its element type). */
const draftsOf = (call: ts.CallExpression): ReadonlyArray<ts.Expression> => {
  const argument = call.arguments[1]
  if (argument === undefined) return []
  if (call.expression.getText() === "emitAll" && ts.isArrayLiteralExpression(argument)) return argument.elements
  return [argument]
}

/** `file:function (line n)` of every direct `emit`/`emitAll` of a status event. */
const statusEmits = (program: ts.Program, files: ReadonlyArray<string>): Array<string> => {
  const checker = program.getTypeChecker()
  const found: Array<string> = []
  eachNode(program, files, (node, file, source) => {
    if (!ts.isCallExpression(node) || !["emit", "emitAll"].includes(node.expression.getText())) return
    if (draftsOf(node).some((draft) => mayBeStatusEvent(checker, draft))) found.push(where(file, source, node))
  })
  return found
}

/** The literal text of an SQL template: its parts without the interpolated values. */
const templateText = (template: ts.TemplateLiteral): string =>
  ts.isNoSubstitutionTemplateLiteral(template)
    ? template.text
    : [template.head.text, ...template.templateSpans.map((s) => s.literal.text)].join(" ? ")

const SQL_STATUS_WRITE = new RegExp(
  `\\bUPDATE\\s+(${Object.values(SQL_TABLE_OF_MACHINE).join("|")})\\s+SET\\b(?:(?!\\bWHERE\\b)[\\s\\S])*\\bstatus\\s*=`,
  "i"
)

/** `file:function (line n)` of every SQL template whose SET clause (before any WHERE) writes the status of a machine's table. */
const sqlStatusWrites = (program: ts.Program, files: ReadonlyArray<string>): Array<string> => {
  const found: Array<string> = []
  eachNode(program, files, (node, file, source) => {
    if (ts.isTaggedTemplateExpression(node) && SQL_STATUS_WRITE.test(templateText(node.template))) found.push(where(file, source, node))
  })
  return found
}

const resourceTypes = (program: ts.Program): Array<ts.Type> => {
  const checker = program.getTypeChecker()
  return Object.values(RESOURCE_OF_MACHINE).map(([pkg, name]) => {
    const source = program.getSourceFile(join(ROOT, "packages", pkg, "src/index.ts"))
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source)
    const exported = module === undefined ? undefined : checker.getExportsOfModule(module).find((s) => s.name === name)
    // A re-export is an alias of the declaration.
    const symbol = exported !== undefined && (exported.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(exported) : exported
    if (symbol === undefined) throw new Error(`@paykit/${pkg} exports no ${name}`)
    const type = checker.getDeclaredTypeOfSymbol(symbol)
    // An unresolved type would be assignable from anything and hide every write.
    if ((type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0) throw new Error(`${name} did not resolve`)
    return type
  })
}

/**
 * Writes and emits the scan must find, and one it must not: the scan is checked against them, so
 * a scan that found nothing could not pass.
 */
const FIXTURE = (engineSrc: string) => `
import type { Payment } from "${engineSrc}/payments/domain/payments.ts"
import { emit, emitAll } from "${engineSrc}/kernel/support.ts"
declare const payment: Payment
declare const changes: { readonly status: "confirmed" }
export const spreadWrite = (): Payment => ({ ...payment, ...changes })
export const assignedWrite = (p: { -readonly [K in keyof Payment]: Payment[K] }) => { p.status = "confirmed" }
export const objectAssignWrite = (p: Payment) => Object.assign(p, { status: "confirmed" })
export const statusEmit = () => emit("OR000000000003", { resource_type: "payments", action: "confirmed", links: {}, cause: { origin: "api", cause: "x" } })
export const statusEmitAll = () => emitAll("OR000000000003", [{ resource_type: "mandates", action: "cancelled", links: {}, cause: { origin: "api", cause: "x" } }])
export const otherEmit = () => emit("OR000000000003", { resource_type: "customers", action: "created", links: {}, cause: { origin: "api", cause: "x" } })
declare const sql: (parts: TemplateStringsArray, ...values: ReadonlyArray<unknown>) => void
export const sqlWrite = (id: string) => sql\`UPDATE access_tokens SET status = 'revoked' WHERE id = \${id}\`
export const sqlOtherWrite = (id: string) => sql\`UPDATE access_tokens SET scope = 'read_only' WHERE id = \${id} AND status = 'active'\`
`

/** The engine's and the server's sources and the fixture, in one program: the type checker's work is done once. */
const scanned = (() => {
  let built: { readonly program: ts.Program; readonly files: ReadonlyArray<string>; readonly fixture: string } | undefined
  return () => {
    if (built !== undefined) return built
    const dir = mkdtempSync(join(tmpdir(), "machine-authority-"))
    const fixture = join(dir, "fixture.ts")
    writeFileSync(fixture, FIXTURE(ENGINE_SRC))
    const files = PACKAGES.flatMap(sourcesOf)
    // The program holds the fixture's text once made; its folder is not needed after.
    const program = programOf([...files, fixture])
    program.getSourceFile(fixture)
    rmSync(dir, { recursive: true, force: true })
    built = { program, files, fixture }
    return built
  }
})()

describe("machines are the only writer of status", () => {
  it("names the stored resource of every machine", () => {
    expect(Object.keys(RESOURCE_OF_MACHINE).sort()).toEqual(MACHINES.map((m) => m.name).sort())
  })

  it("finds status written by spread, assignment and Object.assign, and status events emitted directly", () => {
    const { program, fixture } = scanned()
    const names = (found: ReadonlyArray<string>) => found.map((w) => w.slice(w.indexOf(":") + 1, w.indexOf(" (line")))
    expect(names(statusWrites(program, [fixture], resourceTypes(program)))).toEqual(["spreadWrite", "assignedWrite", "objectAssignWrite"])
    expect(names(statusEmits(program, [fixture]))).toEqual(["statusEmit", "statusEmitAll"])
    expect(names(sqlStatusWrites(program, [fixture]))).toEqual(["sqlWrite"])
  }, 240_000)

  it("no engine, http or server code writes the status of a resource of a machine, or emits a status event, outside the machine functions", () => {
    const { program, files } = scanned()
    const writes = statusWrites(program, files, resourceTypes(program))
    const byHand = writes.filter((w) => !MACHINE_FUNCTIONS.has(w.slice(0, w.indexOf(" (line"))) && !STORE_READS.has(w.slice(0, w.indexOf(" (line"))))
    expect(byHand).toEqual([])
    // The scan sees a write it is meant to see: the billing request step's own.
    expect(writes.some((w) => w.startsWith("packages/engine/src/billing-requests/billing-request-steps.ts:stepBillingRequest"))).toBe(true)
    const emitsByHand = statusEmits(program, files).filter((w) => !SHARED_EVENT_EMITTERS.has(w.slice(0, w.indexOf(" (line"))))
    expect(emitsByHand).toEqual([])
    const sqlByHand = sqlStatusWrites(program, files)
    expect(sqlByHand.filter((w) => !SQL_MOVES.has(w.slice(0, w.indexOf(" (line"))))).toEqual([])
    // The scan sees the SQL it is meant to see: the stores' own moves.
    expect(sqlByHand.map((w) => w.slice(0, w.indexOf(" (line"))).sort()).toEqual([...SQL_MOVES].sort())
  }, 240_000)
})
