import { join } from "node:path"
import ts from "typescript"

/**
 * The list parameters of the official client, read from its own type declarations with the
 * TypeScript compiler: each service of `GoCardlessClient` whose `list` takes a `*ListRequest`
 * (declared in `types/services/*.d.ts` over `types/types/Types.d.ts`), and each property of that
 * request with what its type says it takes. No list is written by hand, so a parameter a later
 * client adds is swept too.
 */

export type ParameterKind =
  | { readonly _tag: "enum"; readonly values: ReadonlyArray<string>; readonly many: boolean }
  | { readonly _tag: "range"; readonly bounds: ReadonlyArray<string> }
  | { readonly _tag: "boolean" }
  | { readonly _tag: "number" }
  | { readonly _tag: "string"; readonly many: boolean }
  | { readonly _tag: "record" }

export interface ClientParameter {
  /** The client's service (`payments`), the property of `GoCardlessClient` it is read through. */
  readonly service: string
  /** The request type it is declared in (`PaymentListRequest`). */
  readonly request: string
  readonly name: string
  readonly required: boolean
  readonly kind: ParameterKind
}

const CLIENT_TYPES = join(process.cwd(), "node_modules/gocardless-nodejs/types/client.d.ts")

/** The string literal values of a union (an enum's template literal `${Types.X}` resolves to them), if it is one. */
const literalsOf = (type: ts.Type): ReadonlyArray<string> | undefined => {
  const members = type.isUnion() ? type.types : [type]
  const values = members.map((member) => member.isStringLiteral() ? member.value : undefined)
  return values.every((v): v is string => v !== undefined) ? values : undefined
}

const kindOf = (checker: ts.TypeChecker, type: ts.Type, at: ts.Node): ParameterKind => {
  const plain = checker.getNonNullableType(type)
  if (checker.isArrayType(plain)) {
    const [element] = checker.getTypeArguments(plain as ts.TypeReference)
    const values = element === undefined ? undefined : literalsOf(element)
    return values === undefined ? { _tag: "string", many: true } : { _tag: "enum", values, many: true }
  }
  if ((plain.flags & ts.TypeFlags.BooleanLike) !== 0) return { _tag: "boolean" }
  if ((plain.flags & ts.TypeFlags.NumberLike) !== 0) return { _tag: "number" }
  if ((plain.flags & ts.TypeFlags.String) !== 0) return { _tag: "string", many: false }
  const values = literalsOf(plain)
  if (values !== undefined) return { _tag: "enum", values, many: false }
  const bounds = checker.getPropertiesOfType(plain).map((p) => p.name)
  if (bounds.length > 0 && bounds.every((b) => ["gt", "gte", "lt", "lte"].includes(b))) return { _tag: "range", bounds }
  if (checker.getIndexInfosOfType(plain).length > 0) return { _tag: "record" }
  throw new Error(`a list parameter type the sweep does not know: ${checker.typeToString(plain, at)}`)
}

/** Every list parameter of every service of the official client. */
export const clientListParameters = (): ReadonlyArray<ClientParameter> => {
  const program = ts.createProgram([CLIENT_TYPES], { noEmit: true, skipLibCheck: true, strict: true })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(CLIENT_TYPES)
  const declaration = source?.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === "GoCardlessClient")
  if (source === undefined || declaration?.name === undefined) throw new Error(`GoCardlessClient not found in ${CLIENT_TYPES}`)
  const client = checker.getTypeAtLocation(declaration.name)
  const found: Array<ClientParameter> = []
  for (const property of checker.getPropertiesOfType(client)) {
    const service = checker.getTypeOfSymbolAtLocation(property, declaration)
    const list = service.getProperty("list")
    if (list === undefined) continue
    const [signature] = checker.getTypeOfSymbolAtLocation(list, declaration).getCallSignatures()
    const parameter = signature?.parameters.find((p) => p.name === "requestParameters")
    if (parameter === undefined) continue
    // `Partial<XListRequest>`: the request itself says which of its properties are required.
    const partial = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(parameter, declaration))
    const request = partial.aliasTypeArguments?.[0] ?? partial
    const requestName = request.getSymbol()?.name ?? "?"
    if (!requestName.endsWith("ListRequest")) continue
    for (const field of checker.getPropertiesOfType(request)) {
      const at = field.valueDeclaration ?? declaration
      found.push({
        service: property.name,
        request: requestName,
        name: field.name,
        required: (field.flags & ts.SymbolFlags.Optional) === 0,
        kind: kindOf(checker, checker.getTypeOfSymbolAtLocation(field, at), at)
      })
    }
  }
  return found
}
