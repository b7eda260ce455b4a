import { Schema } from "effect"
import { ID_PREFIXES } from "@paykit/core"
import { PayerThemeCreate } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id, NullableString } from "../../kernel/fields.ts"

/**
 * A creditor's payer theme: the colours of the payment pages its payers see (hex strings, null
 * where never set). The API answers only with `id`; the rest is stored for the pages that would
 * use it. One theme per creditor. Logos are not stored (absent).
 */
export const PayerTheme = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  header_background_colour: NullableString,
  link_text_colour: NullableString,
  button_background_colour: NullableString,
  content_box_border_colour: NullableString,
  links: Schema.Struct({ creditor: Schema.String })
})
export type PayerTheme = typeof PayerTheme.Type

export const payerThemes = defineResource({
  name: "payer_themes",
  idPrefix: ID_PREFIXES.payer_theme,
  schema: PayerTheme,
  filters: {
    created_at: (r: PayerTheme) => r.created_at,
    creditor: (r: PayerTheme) => r.links.creditor
  }
})

/** `POST /branding/payer_themes`'s body (under `payer_themes`): @paykit/validation's, which also serves its other callers. */
export const PayerThemeCreateRequest = PayerThemeCreate
export type PayerThemeCreateCommand = typeof PayerThemeCreateRequest.Type
