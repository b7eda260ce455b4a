import type { BankAccount } from "../model.ts"
import type { Tree } from "./xml-writer.ts"

/**
 * The fields every SEPA message shares: parties' names, accounts, agents and identifiers, with
 * the lengths the EPC implementation guidelines allow.
 */

/** A party's name: the EPC guidelines allow 70 characters (the ISO schema 140). */
export const NAME_MAX = 70
/** Identifiers (`MsgId`, `PmtInfId`, `EndToEndId`, `MndtId`, the creditor identifier): `Max35Text`. */
export const ID_MAX = 35
/** Unstructured remittance information (`Ustrd`): `Max140Text`, one occurrence in SEPA. */
export const REMITTANCE_MAX = 140

/** What SEPA writes for an agent whose BIC is not known (IBAN-only collection). */
export const NOT_PROVIDED = "NOTPROVIDED"

/** The ISO schema's `IBAN2007Identifier`. */
const IBAN = /^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{1,30}$/
/** The ISO schema's `BICIdentifier`. */
const BIC = /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/

const compact = (s: string): string => s.replace(/\s+/g, "").toUpperCase()

/** An IBAN as a message states it (no spaces, upper case), or undefined when it is not one. */
export const ibanOf = (raw: string | undefined): string | undefined => {
  const iban = raw === undefined ? "" : compact(raw)
  return IBAN.test(iban) ? iban : undefined
}

/** A BIC as a message states it, or undefined when it is not one. */
export const bicOf = (raw: string | undefined): string | undefined => {
  const bic = raw === undefined ? "" : compact(raw)
  return BIC.test(bic) ? bic : undefined
}

/** `<name><Id><IBAN>…</IBAN></Id></name>`. */
export const accountTree = (name: string, iban: string): Tree => [name, [["Id", [["IBAN", iban]]]]]

/** `<name><FinInstnId><BIC>…</BIC></FinInstnId></name>`, or `Othr/Id` `NOTPROVIDED` without a BIC. */
export const agentTree = (name: string, bic: string | undefined): Tree =>
  [name, [["FinInstnId", [bic === undefined ? ["Othr", [["Id", NOT_PROVIDED]]] : ["BIC", bic]]]]]

/**
 * The payer's account, gathered from the elements a message states it in (name, IBAN, BIC):
 * `account` answers it once a name was given, the one field `BankAccount` requires.
 */
export const debtorAccount = () => {
  let name: string | undefined
  let iban: string | undefined
  let bic: string | undefined
  return {
    name: (text: string) => void (name = text),
    iban: (text: string) => void (iban = compact(text)),
    bic: (text: string) => void (bic = text === NOT_PROVIDED ? undefined : compact(text)),
    account: (): BankAccount | undefined =>
      name === undefined ? undefined : { account_holder_name: name, ...(iban === undefined ? {} : { iban }), ...(bic === undefined ? {} : { bic }) }
  }
}
