/**
 * US ABA routing transit numbers: nine digits whose weighted sum with weights 3, 7, 1 repeating is
 * a multiple of 10, and whose first two digits are in a range issued for debit routing:
 * 01-12 (Federal Reserve districts), 21-32 (thrift institutions) and 61-72 (electronic
 * transactions). 00 (the US Government) and 80 (traveller's cheques) are never debited over ACH.
 */

const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const

export const ABA_PREFIX_RANGES: ReadonlyArray<readonly [number, number]> = [
  [1, 12],
  [21, 32],
  [61, 72]
]

const digitsOf = (s: string): ReadonlyArray<number> => [...s].map(Number)

/** The weighted sum mod 10 of nine digits: 0 for a good check digit. */
export const abaChecksum = (routingNumber: string): number =>
  digitsOf(routingNumber).reduce((sum, digit, i) => sum + digit * (WEIGHTS[i] ?? 0), 0) % 10

/** The ninth digit that completes eight digits into a number with a good check digit. */
export const abaCheckDigit = (firstEight: string): number => {
  const partial = digitsOf(firstEight).reduce((sum, digit, i) => sum + digit * (WEIGHTS[i] ?? 0), 0)
  return (10 - (partial % 10)) % 10
}

export const hasAbaPrefix = (routingNumber: string): boolean => {
  const prefix = Number(routingNumber.slice(0, 2))
  return ABA_PREFIX_RANGES.some(([low, high]) => prefix >= low && prefix <= high)
}

/** Every failure of a routing number, as messages. */
export const abaRoutingIssues = (routingNumber: string): ReadonlyArray<string> => {
  if (!/^\d{9}$/.test(routingNumber)) return ["must be a 9-digit ABA routing number"]
  const issues: Array<string> = []
  if (!hasAbaPrefix(routingNumber)) issues.push("must begin with 01-12, 21-32 or 61-72")
  if (abaChecksum(routingNumber) !== 0) issues.push("has a wrong check digit")
  return issues
}

export const isAbaRoutingNumber = (routingNumber: string): boolean => abaRoutingIssues(routingNumber).length === 0
