import type { ResolvedBankAccount } from "./bank-account.ts"

/**
 * One account's identity however its details were written: an IBAN and the local details it
 * carries name the same account. Eurozone local details already resolve to their IBAN; for the
 * countries below, whose local details cannot be turned into an IBAN (a GB IBAN needs the bank's
 * BIC code, which no sort code gives without a bank directory), the IBAN is read back into local
 * details instead. Swedish IBANs are not: their bank code is not the clearing number the local
 * details carry, so a Swedish account given both ways is two identities.
 */

interface LocalParts {
  readonly bank_code: string | null
  readonly branch_code: string | null
  readonly account_number: string | null
}

interface IbanLayout {
  /** The local details inside the IBAN's BBAN. */
  readonly fromBban: (bban: string) => LocalParts
  /** Local details as the BBAN writes them (accounts zero-padded to the BBAN's width). */
  readonly normalise: (local: LocalParts) => LocalParts
}

const IBAN_LAYOUTS: Readonly<Record<string, IbanLayout>> = {
  /** Bank code (4 letters, the BIC's), sort code (6), account number (8; resolution pads local ones). */
  GB: {
    fromBban: (bban) => ({ bank_code: null, branch_code: bban.slice(4, 10), account_number: bban.slice(10, 18) }),
    normalise: (local) => ({ ...local, bank_code: null })
  },
  /** Registration number (4), account number (10, zero-padded). */
  DK: {
    fromBban: (bban) => ({ bank_code: bban.slice(0, 4), branch_code: null, account_number: bban.slice(4, 14) }),
    normalise: (local) => ({ ...local, account_number: local.account_number?.padStart(10, "0") ?? null })
  }
}

/** A string naming the account `account` resolves to, equal for every way of writing its details. */
export const accountIdentityOf = (account: ResolvedBankAccount): string => {
  const layout = IBAN_LAYOUTS[account.country_code]
  if (layout === undefined && account.iban !== null) return `iban:${account.iban}`
  const local = layout === undefined
    ? account
    : account.iban !== null ? layout.fromBban(account.iban.slice(4)) : layout.normalise(account)
  const suffix = layout === undefined ? account.account_number_suffix : null
  return [account.country_code, local.bank_code, local.branch_code, local.account_number, suffix].map((p) => p ?? "").join("|")
}
