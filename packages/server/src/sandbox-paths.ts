/**
 * Paths of the sandbox's own endpoints (paykit's, not GoCardless's), apart from their routes so
 * that the `paykit` command names them without loading the server.
 */

/** The operator's sandbox organisations: made, listed and removed (docs/testing-with-sandboxes.md). */
export const SANDBOX_ORGANISATIONS_PATH = "/sandbox/organisations"
