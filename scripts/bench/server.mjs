// What both benchmark scripts need around the server they start.
import pg from "pg";

/** Runs one statement on the admin database (creating and dropping the benchmark's own). */
export async function admin(adminUrl, sql) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Waits up to two minutes for /healthz (migrations applied), else fails with the server's log. */
export async function waitForHealth(base, server) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server did not start:\n${server.log()}`);
}
