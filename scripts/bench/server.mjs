// What both benchmark scripts need around the server they start (the admin database: ../pg-admin.mjs).

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
