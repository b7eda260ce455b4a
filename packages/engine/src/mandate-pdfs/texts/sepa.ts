import type { MandateDocument } from "../domain/mandate-pdfs.ts"
import type { Labels } from "./labels.ts"
import type { Row, SchemeText, SchemeTexts } from "./form.ts"

/**
 * The SEPA Core mandate (EPC Core rulebook, annex VII): the creditor identifier, the mandate
 * reference, the payer's IBAN and BIC, recurrent payments, and the standard authorisation and
 * refund-right text in each language of the rulebook's translations.
 */

const account = (d: MandateDocument, l: Labels): ReadonlyArray<Row> => [
  [l.iban, d.account.iban],
  [l.bic, d.account.bic],
  [l.payment_type, l.recurrent]
]

const sepa = (title: string, identifier: string, authorisation: (creditor: string) => ReadonlyArray<string>): SchemeText => ({
  title,
  subtitle: "SEPA Core",
  identifier,
  account,
  authorisation
})

export const SEPA_TEXTS: SchemeTexts = {
  en: sepa("SEPA Direct Debit Mandate", "Creditor identifier", (c) => [
    `By signing this mandate form, you authorise (A) ${c} to send instructions to your bank to debit your account and (B) your bank to debit your account in accordance with the instructions from ${c}.`,
    "As part of your rights, you are entitled to a refund from your bank under the terms and conditions of your agreement with your bank. A refund must be claimed within 8 weeks starting from the date on which your account was debited.",
    "Your rights are explained in a statement that you can obtain from your bank."
  ]),
  da: sepa("SEPA Direct Debit-mandat", "Kreditor-id", (c) => [
    `Ved at underskrive denne mandatformular giver du (A) ${c} tilladelse til at sende instrukser til din bank om at debitere din konto og (B) din bank tilladelse til at debitere din konto i overensstemmelse med instrukserne fra ${c}.`,
    "Som en del af dine rettigheder er du berettiget til en tilbagebetaling fra din bank i henhold til vilkårene og betingelserne i din aftale med din bank. En tilbagebetaling skal kræves inden for 8 uger fra den dato, hvor din konto blev debiteret.",
    "Dine rettigheder er forklaret i en erklæring, som du kan få fra din bank."
  ]),
  de: sepa("SEPA-Lastschriftmandat", "Gläubiger-Identifikationsnummer", (c) => [
    `Ich ermächtige / Wir ermächtigen (A) ${c}, Zahlungen von meinem / unserem Konto mittels Lastschrift einzuziehen. Zugleich (B) weise ich mein / weisen wir unser Kreditinstitut an, die von ${c} auf mein / unser Konto gezogenen Lastschriften einzulösen.`,
    "Hinweis: Ich kann / Wir können innerhalb von acht Wochen, beginnend mit dem Belastungsdatum, die Erstattung des belasteten Betrages verlangen. Es gelten dabei die mit meinem / unserem Kreditinstitut vereinbarten Bedingungen."
  ]),
  es: sepa("Orden de domiciliación de adeudo directo SEPA", "Identificador del acreedor", (c) => [
    `Mediante la firma de esta orden de domiciliación, el deudor autoriza (A) al acreedor ${c} a enviar instrucciones a la entidad del deudor para adeudar su cuenta y (B) a la entidad para efectuar los adeudos en su cuenta siguiendo las instrucciones del acreedor ${c}.`,
    "Como parte de sus derechos, el deudor está legitimado al reembolso por su entidad en los términos y condiciones del contrato suscrito con la misma. La solicitud de reembolso deberá efectuarse dentro de las ocho semanas que siguen a la fecha de adeudo en cuenta.",
    "Puede obtener información adicional sobre sus derechos en su entidad financiera."
  ]),
  fr: sepa("Mandat de prélèvement SEPA", "Identifiant créancier SEPA", (c) => [
    `En signant ce formulaire de mandat, vous autorisez (A) ${c} à envoyer des instructions à votre banque pour débiter votre compte, et (B) votre banque à débiter votre compte conformément aux instructions de ${c}.`,
    "Vous bénéficiez du droit d'être remboursé par votre banque selon les conditions décrites dans la convention que vous avez passée avec elle. Une demande de remboursement doit être présentée dans les 8 semaines suivant la date de débit de votre compte pour un prélèvement autorisé.",
    "Vos droits concernant le présent mandat sont expliqués dans un document que vous pouvez obtenir auprès de votre banque."
  ]),
  it: sepa("Mandato per addebito diretto SEPA", "Codice identificativo del creditore", (c) => [
    `La sottoscrizione del presente mandato comporta (A) l'autorizzazione a ${c} a richiedere alla banca del debitore l'addebito del suo conto e (B) l'autorizzazione alla banca del debitore di procedere a tale addebito conformemente alle disposizioni impartite da ${c}.`,
    "Il debitore ha diritto di ottenere il rimborso dalla propria banca secondo gli accordi ed alle condizioni che regolano il rapporto con quest'ultima. Se del caso, il rimborso deve essere richiesto nel termine di 8 settimane a decorrere dalla data di addebito in conto.",
    "I diritti del sottoscrittore del presente mandato sono indicati nella documentazione ottenibile dalla propria banca."
  ]),
  nl: sepa("Doorlopende machtiging SEPA", "Incassant ID", (c) => [
    `Door ondertekening van dit formulier geeft u toestemming aan (A) ${c} om doorlopende incasso-opdrachten te sturen naar uw bank om een bedrag van uw rekening af te schrijven en (B) uw bank om doorlopend een bedrag van uw rekening af te schrijven overeenkomstig de opdracht van ${c}.`,
    "Als u het niet eens bent met deze afschrijving kunt u deze laten terugboeken. Neem hiervoor binnen 8 weken na afschrijving contact op met uw bank. Vraag uw bank naar de voorwaarden."
  ]),
  pt: sepa("Autorização de débito direto SEPA", "Identificação do credor", (c) => [
    `Ao subscrever esta autorização, está a autorizar (A) ${c} a enviar instruções ao seu banco para debitar a sua conta e (B) o seu banco a debitar a sua conta, de acordo com as instruções de ${c}.`,
    "Os seus direitos incluem a possibilidade de exigir do seu banco o reembolso do montante debitado, nos termos e condições acordados com o seu banco. O reembolso deve ser solicitado até um prazo de 8 semanas, a contar da data do débito na sua conta.",
    "Os seus direitos são explicados em declaração que pode obter no seu banco."
  ]),
  sv: sepa("SEPA-autogiromedgivande", "Betalningsmottagarens id", (c) => [
    `Genom att underteckna detta medgivande ger du (A) ${c} tillstånd att skicka instruktioner till din bank att debitera ditt konto och (B) din bank tillstånd att debitera ditt konto i enlighet med instruktionerna från ${c}.`,
    "Som en del av dina rättigheter har du rätt till återbetalning från din bank enligt villkoren i ditt avtal med banken. En begäran om återbetalning måste göras inom 8 veckor från den dag då ditt konto debiterades.",
    "Dina rättigheter förklaras i ett dokument som du kan få från din bank."
  ])
}
