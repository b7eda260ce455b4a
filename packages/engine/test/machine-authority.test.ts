import { readdirSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { MACHINES, stateFieldOf } from "@paykit/machines"
import ts from "typescript"
import { describe, expect, it } from "vitest"

/**
 * Machines are the only writer of status. The type checker reads every source file of the
 * engine and the server and finds each object literal that sets `status` and is a resource of a
 * machine (its type is assignable to the resource's); only the machine functions may build one.
 * A resource made or moved by hand (`{ ...payment, status: "paid" }`) fails here, wherever it is.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")
const ENGINE_SRC = join(ROOT, "packages/engine/src")

/** The stored resource of each machine: its domain file under engine/src and its type. */
const RESOURCE_OF_MACHINE: Readonly<Record<string, readonly [file: string, type: string]>> = {
  outbound_payments: ["outbound/domain/outbound-payments.ts", "OutboundPayment"],
  outbound_payment_imports: ["outbound/domain/outbound-payment-imports.ts", "OutboundPaymentImport"],
  payouts: ["payouts/domain/payouts.ts", "Payout"],
  payer_authorisations: ["payer-flows/domain/payer-authorisations.ts", "PayerAuthorisation"],
  subscriptions: ["collections/domain/subscriptions.ts", "Subscription"],
  mandates: ["collections/domain/mandates.ts", "Mandate"],
  payments: ["collections/domain/payments.ts", "Payment"],
  refunds: ["collections/domain/refunds.ts", "Refund"],
  bank_authorisations: ["payer-flows/domain/bank-authorisations.ts", "BankAuthorisation"],
  billing_requests: ["payer-flows/domain/billing-requests.ts", "BillingRequest"],
  creditors: ["creditors/domain/creditors.ts", "Creditor"]
}

/**
 * The machine functions, the only places a status is written: `file:function`. The billing
 * request's step applies its machine's own `applyBillingRequestEvent`, which moves its actions
 * with its status.
 */
const MACHINE_FUNCTIONS = new Set([
  "packages/engine/src/kernel/support.ts:transitionOf",
  "packages/engine/src/kernel/support.ts:creationOf",
  "packages/engine/src/payer-flows/billing-request-steps.ts:stepBillingRequest"
])

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

const setsField = (literal: ts.ObjectLiteralExpression, field: string): boolean =>
  literal.properties.some((p) =>
    (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && ts.isIdentifier(p.name) && p.name.text === field)

/** A machine's stored resource and the field its state is kept in (`status`, or the machine's `field`). */
interface MachineResourceType {
  readonly type: ts.Type
  readonly field: string
}

/** `file:line function` of every object literal setting the state field of a resource of a machine. */
const statusWrites = (program: ts.Program, files: ReadonlyArray<string>, resources: ReadonlyArray<MachineResourceType>): Array<string> => {
  const checker = program.getTypeChecker()
  const found: Array<string> = []
  for (const file of files) {
    const source = program.getSourceFile(file)
    if (source === undefined) throw new Error(`${file} is not in the program`)
    const visit = (node: ts.Node): void => {
      if (ts.isObjectLiteralExpression(node)) {
        const type = checker.getTypeAtLocation(node)
        if (resources.some((r) => setsField(node, r.field) && checker.isTypeAssignableTo(type, r.type))) {
          const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1
          found.push(`${relative(ROOT, file)}:${enclosingFunction(node)} (line ${line})`)
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}

const resourceTypes = (program: ts.Program): Array<MachineResourceType> => {
  const checker = program.getTypeChecker()
  return MACHINES.map((machine) => {
    const known = RESOURCE_OF_MACHINE[machine.name]
    if (known === undefined) throw new Error(`no resource named for machine ${machine.name}`)
    const [file, name] = known
    const source = program.getSourceFile(join(ENGINE_SRC, file))
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source)
    const symbol = module === undefined ? undefined : checker.getExportsOfModule(module).find((s) => s.name === name)
    if (symbol === undefined) throw new Error(`${file} exports no ${name}`)
    const type = checker.getDeclaredTypeOfSymbol(symbol)
    // An unresolved type would be assignable from anything and hide every write.
    if ((type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0) throw new Error(`${name} did not resolve`)
    return { type, field: stateFieldOf(machine) }
  })
}

describe("machines are the only writer of status", () => {
  it("names the stored resource of every machine", () => {
    expect(Object.keys(RESOURCE_OF_MACHINE).sort()).toEqual(MACHINES.map((m) => m.name).sort())
  })

  it("no engine or server code builds a resource of a machine with a status outside the machine functions", () => {
    const files = [...sourcesOf("engine"), ...sourcesOf("server")]
    const program = programOf(files)
    const writes = statusWrites(program, files, resourceTypes(program))
    const byHand = writes.filter((w) => !MACHINE_FUNCTIONS.has(w.slice(0, w.indexOf(" (line"))))
    expect(byHand).toEqual([])
    // The scan sees a write it is meant to see: the billing request step's own.
    expect(writes.some((w) => w.startsWith("packages/engine/src/payer-flows/billing-request-steps.ts:stepBillingRequest"))).toBe(true)
  }, 240_000)
})
