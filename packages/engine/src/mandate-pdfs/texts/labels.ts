import type { PdfLanguage } from "../domain/mandate-pdfs.ts"

/** The words every form shares, in each language a form is written in. */
export interface Labels {
  readonly creditor: string
  readonly creditor_identifier: string
  readonly mandate_reference: string
  readonly payer: string
  readonly name: string
  readonly address: string
  readonly account: string
  readonly account_holder: string
  readonly iban: string
  readonly bic: string
  readonly account_number: string
  readonly date: string
  readonly signature: string
  /** Shown instead of a signature line when the form was signed on a known date. */
  readonly signed_on: string
  readonly censored: string
  readonly payment_type: string
  readonly recurrent: string
  readonly page_footer: string
}

const en: Labels = {
  creditor: "Creditor",
  creditor_identifier: "Creditor identifier",
  mandate_reference: "Mandate reference",
  payer: "Payer",
  name: "Name",
  address: "Address",
  account: "Bank account",
  account_holder: "Account holder",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Account number",
  date: "Date",
  signature: "Signature",
  signed_on: "Signed on",
  censored: "Bank details are shown in part, as held on the existing mandate.",
  payment_type: "Type of payment",
  recurrent: "Recurrent",
  page_footer: "Mandate form"
}

const da: Labels = {
  creditor: "Kreditor",
  creditor_identifier: "Kreditor-id",
  mandate_reference: "Mandatreference",
  payer: "Betaler",
  name: "Navn",
  address: "Adresse",
  account: "Bankkonto",
  account_holder: "Kontohaver",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Kontonummer",
  date: "Dato",
  signature: "Underskrift",
  signed_on: "Underskrevet den",
  censored: "Bankoplysningerne vises delvist, som de står på det eksisterende mandat.",
  payment_type: "Betalingstype",
  recurrent: "Tilbagevendende",
  page_footer: "Mandatformular"
}

const de: Labels = {
  creditor: "Zahlungsempfänger",
  creditor_identifier: "Gläubiger-Identifikationsnummer",
  mandate_reference: "Mandatsreferenz",
  payer: "Zahlungspflichtiger",
  name: "Name",
  address: "Anschrift",
  account: "Bankverbindung",
  account_holder: "Kontoinhaber",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Kontonummer",
  date: "Datum",
  signature: "Unterschrift",
  signed_on: "Unterschrieben am",
  censored: "Die Bankverbindung wird teilweise angezeigt, wie sie im bestehenden Mandat hinterlegt ist.",
  payment_type: "Zahlungsart",
  recurrent: "Wiederkehrende Zahlung",
  page_footer: "Mandatsformular"
}

const es: Labels = {
  creditor: "Acreedor",
  creditor_identifier: "Identificador del acreedor",
  mandate_reference: "Referencia de la orden de domiciliación",
  payer: "Deudor",
  name: "Nombre",
  address: "Dirección",
  account: "Cuenta bancaria",
  account_holder: "Titular de la cuenta",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Número de cuenta",
  date: "Fecha",
  signature: "Firma",
  signed_on: "Firmado el",
  censored: "Los datos bancarios se muestran en parte, tal como constan en la orden existente.",
  payment_type: "Tipo de pago",
  recurrent: "Recurrente",
  page_footer: "Orden de domiciliación"
}

const fr: Labels = {
  creditor: "Créancier",
  creditor_identifier: "Identifiant créancier SEPA",
  mandate_reference: "Référence unique du mandat",
  payer: "Débiteur",
  name: "Nom",
  address: "Adresse",
  account: "Compte bancaire",
  account_holder: "Titulaire du compte",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Numéro de compte",
  date: "Date",
  signature: "Signature",
  signed_on: "Signé le",
  censored: "Les coordonnées bancaires sont affichées en partie, telles qu'elles figurent sur le mandat existant.",
  payment_type: "Type de paiement",
  recurrent: "Récurrent",
  page_footer: "Formulaire de mandat"
}

const it: Labels = {
  creditor: "Creditore",
  creditor_identifier: "Codice identificativo del creditore",
  mandate_reference: "Riferimento del mandato",
  payer: "Debitore",
  name: "Nome",
  address: "Indirizzo",
  account: "Conto bancario",
  account_holder: "Intestatario del conto",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Numero di conto",
  date: "Data",
  signature: "Firma",
  signed_on: "Firmato il",
  censored: "Le coordinate bancarie sono mostrate in parte, come registrate nel mandato esistente.",
  payment_type: "Tipo di pagamento",
  recurrent: "Ricorrente",
  page_footer: "Modulo di mandato"
}

const nl: Labels = {
  creditor: "Incassant",
  creditor_identifier: "Incassant ID",
  mandate_reference: "Kenmerk machtiging",
  payer: "Betaler",
  name: "Naam",
  address: "Adres",
  account: "Bankrekening",
  account_holder: "Rekeninghouder",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Rekeningnummer",
  date: "Datum",
  signature: "Handtekening",
  signed_on: "Ondertekend op",
  censored: "De bankgegevens worden gedeeltelijk getoond, zoals vastgelegd in de bestaande machtiging.",
  payment_type: "Soort betaling",
  recurrent: "Doorlopend",
  page_footer: "Machtigingsformulier"
}

const pt: Labels = {
  creditor: "Credor",
  creditor_identifier: "Identificação do credor",
  mandate_reference: "Referência da autorização",
  payer: "Devedor",
  name: "Nome",
  address: "Morada",
  account: "Conta bancária",
  account_holder: "Titular da conta",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Número de conta",
  date: "Data",
  signature: "Assinatura",
  signed_on: "Assinado em",
  censored: "Os dados bancários são mostrados em parte, tal como constam da autorização existente.",
  payment_type: "Tipo de pagamento",
  recurrent: "Recorrente",
  page_footer: "Autorização de débito direto"
}

const sv: Labels = {
  creditor: "Betalningsmottagare",
  creditor_identifier: "Betalningsmottagarens id",
  mandate_reference: "Medgivandereferens",
  payer: "Betalare",
  name: "Namn",
  address: "Adress",
  account: "Bankkonto",
  account_holder: "Kontohavare",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Kontonummer",
  date: "Datum",
  signature: "Underskrift",
  signed_on: "Undertecknat den",
  censored: "Bankuppgifterna visas delvis, så som de finns på det befintliga medgivandet.",
  payment_type: "Betalningstyp",
  recurrent: "Återkommande",
  page_footer: "Medgivandeblankett"
}

export const LABELS: Readonly<Record<PdfLanguage, Labels>> = { en, da, de, es, fr, it, nl, pt, sv }
