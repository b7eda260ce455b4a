/**
 * A statement's parameter written into `EXECUTE name(...)`, for the tests that run a prepared
 * statement by its forced generic plan: a number as it is, an array of numbers as an array
 * literal, anything else as a quoted text (PostgreSQL casts it to the parameter's type).
 */
export const executeLiteral = (value: unknown): string =>
  Array.isArray(value)
    ? `'{${value.join(",")}}'`
    : typeof value === "number" || typeof value === "bigint"
    ? String(value)
    : `'${String(value).replaceAll("'", "''")}'`
