// One statement on PostgreSQL's admin database: creating and dropping the databases that the
// benchmarks, the soaks and the backup test run on.
import pg from "pg";

/**
 * Runs `sql` on `adminUrl` with a connection of its own.
 * @param {string} adminUrl
 * @param {string} sql
 */
export async function adminQuery(adminUrl, sql) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
