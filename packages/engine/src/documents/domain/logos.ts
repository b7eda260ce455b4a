import { Schema } from "effect"
import { ID_PREFIXES } from "@paykit/core"
import { type ImageFormat, LogoCreate, LOGOS } from "@paykit/validation"
import { defineResource } from "../../kernel/definition.ts"
import { CreatedAt, Id } from "../../kernel/fields.ts"

/** The formats a logo is kept in: the one it was uploaded in. */
export const LOGO_FORMATS = ["png", "jpeg"] as const satisfies ReadonlyArray<ImageFormat>

/**
 * A creditor's logo as the hosted pages show it: the scaled image (base64, in the format it was
 * uploaded in, its metadata stripped). One per creditor: an upload replaces the image and keeps
 * the id. The API answers only with `id`.
 */
export const Logo = Schema.Struct({
  id: Id,
  created_at: CreatedAt,
  /** When the image was last replaced: the served URL carries it, so a browser never shows a stale one. */
  updated_at: CreatedAt,
  format: Schema.Literals(LOGO_FORMATS),
  width: Schema.Int,
  height: Schema.Int,
  image: Schema.String,
  links: Schema.Struct({ creditor: Schema.String })
})
export type Logo = typeof Logo.Type

export const logos = defineResource({
  name: LOGOS,
  idPrefix: ID_PREFIXES.logo,
  schema: Logo,
  filters: {
    created_at: (r: Logo) => r.created_at,
    creditor: (r: Logo) => r.links.creditor
  }
})

/** `POST /branding/logos`'s body (under `logos`): @paykit/validation's, which checks the image's magic bytes and size. */
export const LogoCreateRequest = LogoCreate
export type LogoCreateRequest = typeof LogoCreateRequest.Type
