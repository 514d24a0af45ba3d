/** A UUID as PostgreSQL prints it: checked before a lookup, so a malformed id is a 404, not a 500. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
