/** The PostgreSQL error code of a failed statement (drizzle may wrap the driver's in `cause`). */
const codeOf = (error: unknown) =>
  typeof error === "object" && error !== null
    ? ((error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code)
    : undefined;

/** A unique index refused the row (PostgreSQL 23505). */
export const isUniqueViolation = (error: unknown) => codeOf(error) === "23505";

/** A row referenced a parent that is gone (PostgreSQL 23503). */
export const isForeignKeyViolation = (error: unknown) => codeOf(error) === "23503";
