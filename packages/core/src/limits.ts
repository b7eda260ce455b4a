/**
 * Every limit of the specification, named once. Code that enforces a limit imports it from here,
 * so a change of limit is a change of one line.
 */

/** `metadata`: at most this many keys. */
export const METADATA_MAX_KEYS = 3
/** `metadata`: key names up to this many characters. */
export const METADATA_MAX_KEY_LENGTH = 50
/** `metadata`: values up to this many characters. */
export const METADATA_MAX_VALUE_LENGTH = 500

/** Faster Payments reference on outbound payments and import entries. */
export const FASTER_PAYMENTS_REFERENCE_MAX_LENGTH = 18

/** Mandate PDF `account_holder_name`. */
export const MANDATE_PDF_ACCOUNT_HOLDER_NAME_MAX_LENGTH = 18
/** Mandate PDF `mandate_reference` (when given). */
export const MANDATE_PDF_REFERENCE_MIN_LENGTH = 6
export const MANDATE_PDF_REFERENCE_MAX_LENGTH = 18
/** Mandate PDF URL life, in milliseconds. */
export const MANDATE_PDF_URL_LIFE_MS = 10 * 60 * 1000

/** Payment account `account_holder_name`: transliterated, upcased and truncated to this length. */
export const PAYMENT_ACCOUNT_HOLDER_NAME_MAX_LENGTH = 18

/** Negative balance limit when a creditor has none set: the balance may not go below zero. */
export const NEGATIVE_BALANCE_LIMIT_DEFAULT = 0

/** Subscription `name`. */
export const SUBSCRIPTION_NAME_MAX_LENGTH = 255
/** Subscription `upcoming_payments`: at most this many items. */
export const SUBSCRIPTION_UPCOMING_PAYMENTS_MAX = 10
/** Subscription list `status` filter: at most this many values. */
export const SUBSCRIPTION_STATUS_FILTER_MAX = 5

/** Bank authorisation URL life, in milliseconds. */
export const BANK_AUTHORISATION_URL_LIFE_MS = 15 * 60 * 1000
/** Billing request flow life (its `expires_at`), in milliseconds: seven days, as the real API's flows. */
export const BILLING_REQUEST_FLOW_LIFE_MS = 7 * 24 * 60 * 60 * 1000
/** Redirect flow life, in milliseconds: thirty minutes after creation, as the real API documents. */
export const REDIRECT_FLOW_LIFE_MS = 30 * 60 * 1000
/** A completed redirect flow's `confirmation_url` is available for 15 minutes after completion (the real API). */
export const REDIRECT_FLOW_CONFIRMATION_LIFE_MS = 15 * 60 * 1000
/** OAuth authorisation code life, in milliseconds. */
export const OAUTH_CODE_LIFE_MS = 5 * 60 * 1000
/** OAuth `client_id` and `client_secret` length. */
export const OAUTH_CLIENT_CREDENTIAL_LENGTH = 64

/** `app_fee`: at most this share of the payment amount, in basis points (50%). */
export const APP_FEE_MAX_BASIS_POINTS = 5000

/** Logo: scaled to at most this size. */
export const LOGO_MAX_WIDTH_PX = 300
export const LOGO_MAX_HEIGHT_PX = 40
/**
 * Logo: the most pixels an upload may declare (24 megapixels, a 6000x4000 photo). The decoder
 * refuses a larger canvas before allocating it, so a small file declaring a huge one (a
 * decompression bomb) is refused.
 */
export const LOGO_MAX_INPUT_PIXELS = 24_000_000

/** Rate limits of the outbound payment endpoint groups, per organisation per minute. */
export const OUTBOUND_PAYMENT_WRITE_RATE_LIMIT_PER_MINUTE = 300
export const OUTBOUND_PAYMENT_OTHER_RATE_LIMIT_PER_MINUTE = 500

/** Cursor pagination: the page size when `limit` is absent, and the largest accepted. */
export const PAGE_SIZE_DEFAULT = 50
export const PAGE_SIZE_MAX = 500

/** Payout items: only items created in this many previous months are returned. */
export const PAYOUT_ITEMS_MONTHS = 6

/** FX exchange rates carry at most this many decimal places. */
export const EXCHANGE_RATE_MAX_DECIMALS = 10

/** The one API version this implementation serves (`GoCardless-Version`). */
export const API_VERSION = "2015-07-06"

/** An identifier is its prefix followed by this many Crockford base32 characters. */
export const ID_BODY_LENGTH = 12

/**
 * Any string of a request (a value or an object's key) that no tighter limit names: at most this
 * many characters (UTF-16 code units). GoCardless documents no general limit; this one is far above
 * every real field (names, addresses, URLs, descriptions) and keeps a single value from being
 * carried by every page of a list.
 */
export const STRING_MAX_LENGTH = 1000
/** Objects and arrays of a request nest at most this deep (real bodies use five levels). */
export const INPUT_MAX_DEPTH = 16
/**
 * A 422 lists at most this many of its field errors (the first found, in the request's order), and
 * its message says how many more there were: a body of thousands of wrong fields is answered in a
 * few kilobytes, and a developer fixes the first hundred before the rest matter.
 */
export const VALIDATION_ERRORS_LISTED_MAX = 100
/** Creditor and customer names, company names and account holder names given at creation. */
export const NAME_MAX_LENGTH = 255
/**
 * A postal address field (a line, city, region or postal code) where a request's text is drawn
 * onto a document (mandate PDFs): as long as a name may be, far above any real address line, and
 * short enough that the PDF's line wrapping stays quick on one unbroken word.
 */
export const ADDRESS_FIELD_MAX_LENGTH = NAME_MAX_LENGTH
/** Free-text descriptions (payments, billing request payment and mandate requests). */
export const DESCRIPTION_MAX_LENGTH = 255
/** Email addresses: RFC 5321's longest path, less the angle brackets. */
export const EMAIL_MAX_LENGTH = 254
/** Logo `image`: base64 of at most 1 MiB of image (GoCardless's limit on logo files is not published). */
export const LOGO_IMAGE_MAX_BASE64_LENGTH = 4 * Math.ceil((1024 * 1024) / 3)
/**
 * Entries of one outbound payment import: GoCardless caps imports at 1,000 entries ("Outbound
 * Payment Imports are capped at 1000 entries. If you expect to exceed this limit, please create
 * multiple smaller imports": the `OutboundPaymentImport` resource's documentation in GoCardless's
 * client libraries, e.g. gocardless_pro 4.8.0). A larger import is refused at creation.
 */
export const OUTBOUND_PAYMENT_IMPORT_MAX_ENTRIES = 1_000

/**
 * How long an idempotency key is kept after its creation: a reuse within it is a conflict, a use
 * after it creates afresh. The spec gives no lifetime; 30 days, measured on the organisation's
 * clock (the sandbox's simulated one in sandbox mode). The HTTP layer keeps keys for it; the
 * engine's retention removes them after it.
 */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000
