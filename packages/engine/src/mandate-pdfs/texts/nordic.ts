import type { MandateDocument } from "../domain/mandate-pdfs.ts"
import type { Row, SchemeTexts } from "./form.ts"

/**
 * Autogiro (Bankgirot's consent to payment by Autogiro, with its general terms: notice of coming
 * withdrawals, cover on the due date, revocation) and Betalingsservice (registration of a payment
 * agreement, with the payer's CPR number, the creditor's PBS number, and the right to a refund).
 */

const autogiroPayer = (label: string) => (d: MandateDocument): ReadonlyArray<Row> => [[label, d.payer.swedish_identity_number]]
const danishPayer = (label: string) => (d: MandateDocument): ReadonlyArray<Row> => [[label, d.payer.danish_identity_number]]

export const AUTOGIRO_TEXTS: SchemeTexts = {
  en: {
    title: "Consent to payment by Autogiro",
    subtitle: "Autogiro",
    identifier: "Bankgiro number",
    account: (d) => [["Clearing number", d.account.branch_code], ["Account number", d.account.account_number]],
    payerExtra: autogiroPayer("Personal identity number"),
    authorisation: (c) => [
      `I consent to payments being made by withdrawals from the account stated, or from an account I later name, at the request of ${c} for transfer to ${c} by Autogiro. The bank is not obliged to check the authority of the withdrawals or to notify me of them in advance.`,
      `Notice of withdrawals: ${c} will notify me of the amount, due date and method of payment at least eight banking days before the due date. I will make sure there are sufficient funds in the account by 00:01 on the due date.`,
      `Revocation: this consent is valid until further notice. I may revoke it by contacting ${c} no later than five banking days before the due date, or my bank no later than the banking day before the due date. I may also stop a single withdrawal in the same way.`
    ]
  },
  sv: {
    title: "Medgivande till betalning via Autogiro",
    subtitle: "Autogiro",
    identifier: "Bankgironummer",
    account: (d) => [["Clearingnummer", d.account.branch_code], ["Kontonummer", d.account.account_number]],
    payerExtra: autogiroPayer("Personnummer"),
    authorisation: (c) => [
      `Jag medger att betalning får göras genom uttag från angivet konto, eller konto som jag senare anvisar, på begäran av ${c} för överföring till ${c} via Autogiro. Banken är inte skyldig att pröva behörigheten av eller meddela mig i förväg om uttagen.`,
      `Information om uttag: ${c} ska meddela mig belopp, förfallodag och betalningssätt senast åtta bankdagar före förfallodagen. Jag ska se till att täckning finns på kontot senast kl. 00.01 på förfallodagen.`,
      `Återkallelse: medgivandet gäller tills vidare. Jag har rätt att återkalla medgivandet genom att kontakta ${c} senast fem bankdagar före förfallodagen eller banken senast bankdagen före förfallodagen. Jag kan på samma sätt stoppa ett enskilt uttag.`
    ]
  }
}

export const BETALINGSSERVICE_TEXTS: SchemeTexts = {
  en: {
    title: "Registration for Betalingsservice",
    subtitle: "Betalingsservice",
    identifier: "PBS number",
    account: (d) => [["Registration number", d.account.bank_code], ["Account number", d.account.account_number]],
    payerExtra: danishPayer("CPR number"),
    authorisation: (c) => [
      `I request that payments to ${c} are made through Betalingsservice from the account stated above. ${c} will send me a list of payments before each payment date.`,
      "I may cancel this payment agreement at any time by contacting my bank or the creditor. I have the right to reject a payment that appears on the payment list up to and including the banking day after the payment date, and to have a payment I did not authorise refunded by my bank under the rules of Betalingsservice."
    ]
  },
  da: {
    title: "Tilmelding til Betalingsservice",
    subtitle: "Betalingsservice",
    identifier: "PBS-nummer",
    account: (d) => [["Registreringsnummer", d.account.bank_code], ["Kontonummer", d.account.account_number]],
    payerExtra: danishPayer("CPR-nummer"),
    authorisation: (c) => [
      `Jeg anmoder om, at betalinger til ${c} betales via Betalingsservice fra ovennævnte konto. ${c} sender mig en betalingsoversigt før hver betalingsdato.`,
      "Jeg kan til enhver tid afmelde betalingsaftalen ved at kontakte mit pengeinstitut eller kreditor. Jeg har ret til at afvise en betaling, der står på betalingsoversigten, til og med bankdagen efter betalingsdatoen, og til at få en betaling, som jeg ikke har godkendt, tilbageført af mit pengeinstitut efter reglerne for Betalingsservice."
    ]
  }
}
