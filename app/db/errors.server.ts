/** A unique index refused the row (PostgreSQL 23505; drizzle may wrap it in `cause`). */
export const isUniqueViolation = (error: unknown) =>
  typeof error === "object" &&
  error !== null &&
  ((error as { code?: string }).code === "23505" ||
    (error as { cause?: { code?: string } }).cause?.code === "23505");
