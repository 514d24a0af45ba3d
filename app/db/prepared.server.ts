import { db, type Db } from "./client.server";

/**
 * A query of every page view (the session, the user, the project), built once per database handle
 * and run as a named prepared statement: drizzle then skips building the SQL and PostgreSQL skips
 * parsing and planning it (measured: building queries was a tenth of the shell's server time;
 * docs/performance.md).
 */
export function prepared<T>(build: (database: Db) => T): () => T {
  const byDatabase = new WeakMap<Db, T>();
  return () => {
    const current = db();
    let query = byDatabase.get(current);
    if (!query) {
      query = build(current);
      byDatabase.set(current, query);
    }
    return query;
  };
}
