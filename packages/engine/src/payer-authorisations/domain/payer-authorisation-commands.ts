import { Schema } from "effect"
import { CountryCode, MandateScheme, Metadata } from "@paykit/core"
import { PayerAddressFields, PayerText } from "../../billing-requests/domain/payer-fields.ts"

/** `POST /payer_authorisations` and `PUT /payer_authorisations/{id}`: the body under `payer_authorisations`. */
export const PayerAuthorisationBody = Schema.Struct({
  customer: Schema.optionalKey(Schema.Struct({
    email: PayerText,
    given_name: PayerText,
    family_name: PayerText,
    company_name: PayerText,
    ...PayerAddressFields,
    locale: PayerText,
    swedish_identity_number: PayerText,
    danish_identity_number: PayerText,
    metadata: Schema.optionalKey(Metadata)
  })),
  bank_account: Schema.optionalKey(Schema.Struct({
    account_holder_name: PayerText,
    account_number: PayerText,
    account_number_suffix: PayerText,
    account_type: Schema.optionalKey(Schema.NullOr(Schema.Literals(["savings", "checking"]))),
    bank_code: PayerText,
    branch_code: PayerText,
    country_code: Schema.optionalKey(Schema.NullOr(CountryCode)),
    currency: PayerText,
    iban: PayerText,
    metadata: Schema.optionalKey(Metadata)
  })),
  mandate: Schema.optionalKey(Schema.Struct({
    reference: PayerText,
    scheme: Schema.optionalKey(Schema.NullOr(MandateScheme)),
    payer_ip_address: PayerText,
    metadata: Schema.optionalKey(Metadata)
  })),
  // The real API takes no links here: the mandate is the organisation's creditor's. A link sent
  // anyway (another organisation's creditor, say) is refused rather than dropped unseen.
  links: Schema.optionalKey(Schema.Never.annotate({ message: "is not accepted: a payer authorisation's mandate is for the organisation's own creditor" }))
})
export type PayerAuthorisationBody = typeof PayerAuthorisationBody.Type
