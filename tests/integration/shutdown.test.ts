/**
 * Readiness and a clean shutdown (server/lifecycle.mjs, drainQueue in app/jobs/queue.server.ts):
 * /readyz is 503 while a process boots and while it stops; on SIGTERM the requests under way
 * finish, no new connection is taken, running jobs finish or go back to the queue untouched, and
 * the process exits 0. The server tests run the real `npm start` process on this test's
 * database; slow requests are made slow by holding a lock on the sessions table, which every
 * signed-in request reads first.
 */
import net from "node:net";
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { BOOT_LOCK_KEY, database } from "~/db/client.server";
import { QUEUES } from "~/jobs/index.server";
import { RUNNER_ID } from "~/jobs/orphans.server";
import {
  drainQueue,
  queue,
  startQueue,
  stopQueue,
  work,
  workersRunning,
} from "~/jobs/queue.server";
import { createUser, sessionCookie } from "../helpers";
import { launchServer, startServer, stopServer, waitFor, type Server } from "./lifecycle-support";

const postgres = Boolean(process.env.DATABASE_URL);

/** A queue of this test's own, worked by this process only. */
const QUEUE = "test.shutdown";

async function jobRow(id: string) {
  const { rows } = await database().raw(
    "select state, retry_count, output from pgboss.job where name = $1 and id = $2::uuid",
    [QUEUE, id],
  );
  return rows[0] as { state: string; retry_count: number; output: Record<string, unknown> | null };
}

/**
 * The queries of this database waiting for a lock, and how many server processes they belong to
 * (each names its connections `stackshift:{pid}`).
 */
async function lockWaits(client: pg.Client) {
  const { rows } = await client.query(
    `select count(*)::int as queries, count(distinct application_name)::int as processes
     from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
  );
  return rows[0] as { queries: number; processes: number };
}

/** Whether a new TCP connection to `base` is refused. */
function connectionRefused(base: string): Promise<boolean> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe("a shutdown's jobs", () => {
  const gates: { open: () => void }[] = [];
  beforeEach(async () => {
    // A queue of its own for each test: a drained queue takes no more jobs until restarted.
    await stopQueue();
    await startQueue([...QUEUES, QUEUE]);
    await database().raw("delete from pgboss.job where name = $1", [QUEUE]);
  });
  afterEach(() => {
    for (const g of gates) g.open();
  });

  it("lets a running job finish and takes no job after the shutdown starts", async () => {
    const started = gate();
    const release = gate();
    gates.push(release);
    await work(QUEUE, async () => {
      started.open();
      await release.opened;
    });
    expect(workersRunning()).toBe(true);
    const running = await queue().send(QUEUE, {}, { retryLimit: 2 });
    await started.opened;

    const drained = drainQueue(Date.now() + 10_000);
    expect(workersRunning(), "a stopping process is not ready").toBe(false);
    const waiting = await queue().send(QUEUE, {}, { retryLimit: 2 });
    setTimeout(release.open, 300);
    expect(await drained).toEqual({ finished: 1, givenBack: 0 });

    await waitFor(async () => (await jobRow(running!)).state === "completed", {
      what: "the finished job to be completed",
    });
    // Two polling intervals later, still nobody took the job sent after the shutdown began.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await jobRow(waiting!)).state).toBe("created");
  });

  it("gives back a job still running at the end of the grace, its retries untouched, and it runs again", async () => {
    const started = gate();
    const never = gate();
    gates.push(never);
    await work(QUEUE, async () => {
      started.open();
      await never.opened;
    });
    const id = await queue().send(QUEUE, {}, { retryLimit: 1 });
    await started.opened;

    expect(await drainQueue(Date.now() + 300)).toEqual({ finished: 0, givenBack: 1 });
    const row = await jobRow(id!);
    expect(row.state).toBe("retry");
    expect(row.retry_count).toBe(0);
    expect(row.output).toEqual({ givenBackBy: RUNNER_ID });

    // The next process (here: this one, restarted) runs it to completion.
    await stopQueue();
    await startQueue([...QUEUES, QUEUE]);
    await work(QUEUE, async () => undefined);
    await waitFor(async () => (await jobRow(id!)).state === "completed", {
      what: "the given-back job to complete",
    });
    expect((await jobRow(id!)).retry_count).toBe(0);
  });
});

describe.runIf(postgres)("a server process's readiness and shutdown", () => {
  let server: Server | undefined;
  /** A connection of this test's own, for locks the server must wait for. */
  let locker: pg.Client | undefined;

  async function openLocker() {
    locker = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
    return locker;
  }

  afterEach(async () => {
    await locker?.end().catch(() => undefined);
    locker = undefined;
    if (server) await stopServer(server, "SIGKILL");
    server = undefined;
  });
  afterAll(async () => {
    await stopQueue();
  });

  const exited = (proc: Server["proc"]) =>
    new Promise<number | null>((resolve) => {
      if (proc.exitCode !== null) resolve(proc.exitCode);
      else proc.once("exit", (code) => resolve(code));
    });

  it("answers /readyz 503 while it boots (every other address too) and 200 once its job workers run", async () => {
    // Boot waits for this lock before migrating and starting its job workers.
    const lock = await openLocker();
    await lock.query("select pg_advisory_lock($1)", [BOOT_LOCK_KEY]);
    server = await launchServer({ WEB_CONCURRENCY: "1" });
    const first = await waitFor(async () => fetch(`${server!.base}/readyz`).catch(() => null), {
      what: "the booting server to answer",
      timeout: 60_000,
    });
    expect(first.status).toBe(503);
    expect(await first.text()).toBe("starting");
    const page = await fetch(`${server.base}/sites`, { redirect: "manual" });
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("5");
    expect((await fetch(`${server.base}/healthz`)).status).toBe(503);

    await lock.query("select pg_advisory_unlock($1)", [BOOT_LOCK_KEY]);
    const ready = await waitFor(
      async () => {
        const res = await fetch(`${server!.base}/readyz`);
        return res.status === 200 ? res : null;
      },
      { what: "/readyz to answer 200", timeout: 60_000 },
    );
    expect(await ready.text()).toBe("ready");
    expect(ready.headers.get("cache-control")).toBe("no-store");
  }, 90_000);

  it("on SIGTERM during 50 slow requests: /readyz 503, no new connections, all 50 finish, exit 0", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    server = await startServer({ WEB_CONCURRENCY: "1", SHUTDOWN_DELAY_SECONDS: "3" });
    const { base, proc } = server;
    // A balancer watches this process.
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    const lock = await openLocker();
    await lock.query("begin");
    await lock.query("lock table sessions in access exclusive mode");
    const settled: number[] = [];
    const requests = Array.from({ length: 50 }, () =>
      fetch(`${base}/api/app`, { headers: { Cookie: cookie } }).then(async (res) => {
        await res.arrayBuffer();
        settled.push(res.status);
        return res.status;
      }),
    );
    // They wait for the lock (one read of the session serves the 50: the server counts them, in
    // its "shut down" line below).
    await waitFor(
      async () => {
        return (await lockWaits(lock)).queries >= 1;
      },
      { what: "the server's queries to wait for the lock" },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(settled).toEqual([]);

    const exit = exited(proc);
    proc.kill("SIGTERM");
    // At once not ready, on a new connection, while the listener stays open for the balancer.
    const stopping = await waitFor(
      async () => {
        const res = await fetch(`${base}/readyz`, { headers: { Connection: "close" } });
        return res.status === 503 ? res : null;
      },
      { what: "/readyz to answer 503", timeout: 5_000 },
    );
    expect(await stopping.text()).toBe("stopping");
    // Then no new connection is taken.
    await waitFor(async () => (await connectionRefused(base)) === true, {
      what: "the server to refuse new connections",
      timeout: 10_000,
    });
    expect(settled, "no request was cut").toEqual([]);

    await lock.query("commit");
    expect(await Promise.all(requests)).toEqual(Array.from({ length: 50 }, () => 200));
    expect(await exit).toBe(0);
    const shutDown = server.output
      .join("")
      .split("\n")
      .filter((line) => line.includes('"msg":"shut down"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(shutDown).toEqual([
      expect.objectContaining({ signal: "SIGTERM", requests: 50, requestsCut: 0 }),
    ]);
  }, 120_000);

  it("with several processes, SIGTERM to the primary lets each finish its requests, then exit 0", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    server = await startServer({ WEB_CONCURRENCY: "2", SHUTDOWN_DELAY_SECONDS: "2" });
    const { base, proc, output } = server;
    // Both listen (each once booted).
    await waitFor(async () => output.join("").split("StackShift dashboard on").length - 1 === 2, {
      what: "both processes to listen",
      timeout: 60_000,
    });
    // A balancer watches: it asks one process, and both pause before closing their listeners.
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const lock = await openLocker();
    await lock.query("begin");
    await lock.query("lock table sessions in access exclusive mode");
    const requests = Array.from({ length: 20 }, () =>
      fetch(`${base}/api/app`, { headers: { Cookie: cookie } }).then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      }),
    );
    // Both processes got some (the primary hands connections out in turn), and wait.
    await waitFor(
      async () => {
        return (await lockWaits(lock)).processes >= 2;
      },
      { what: "both processes' queries to wait for the lock" },
    );
    const exit = exited(proc);
    proc.kill("SIGTERM");
    // Past their pause: the listeners are closed with the requests still waiting.
    await waitFor(async () => (await connectionRefused(base)) === true, {
      what: "the processes to refuse new connections",
      timeout: 10_000,
    });
    await lock.query("commit");
    expect(await Promise.all(requests)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(await exit).toBe(0);
    const lines = server.output
      .join("")
      .split("\n")
      .filter((line) => line.includes('"msg":"shut down"'))
      .map((line) => JSON.parse(line) as { requests: number; requestsCut: number });
    expect(lines).toHaveLength(2);
    expect(lines.reduce((sum, line) => sum + line.requests, 0)).toBe(20);
    expect(lines.every((line) => line.requestsCut === 0)).toBe(true);
  }, 120_000);

  it("cuts a request still running at the end of the grace, and exits 1", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    server = await startServer({ WEB_CONCURRENCY: "1", SHUTDOWN_GRACE_SECONDS: "2" });
    const { base, proc } = server;
    const lock = await openLocker();
    await lock.query("begin");
    await lock.query("lock table sessions in access exclusive mode");
    let outcome: number | "cut" | "pending" = "pending";
    const request = fetch(`${base}/api/app`, { headers: { Cookie: cookie } }).then(
      (res) => (outcome = res.status),
      () => (outcome = "cut"),
    );
    await waitFor(
      async () => {
        return (await lockWaits(lock)).queries >= 1 || outcome !== "pending";
      },
      { what: "the request to wait for the lock" },
    );
    expect(outcome, "the request waits for the lock").toBe("pending");
    const started = Date.now();
    const exit = exited(proc);
    proc.kill("SIGTERM");
    expect(await exit).toBe(1);
    expect(await request).toBe("cut");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(Date.now() - started).toBeLessThan(10_000);
    await lock.query("rollback");
  }, 90_000);
});
