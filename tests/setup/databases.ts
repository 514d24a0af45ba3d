/**
 * Which databases the test run uses (docs/configuration.md): PostgreSQL when TEST_DATABASE_URL is set or a
 * server answers on 127.0.0.1:5432, and the embedded PGlite always (for the smoke suite, and for
 * everything when no PostgreSQL is around).
 */
import net from "node:net";

export const DEFAULT_PG_URL = "postgres://postgres@127.0.0.1:5432/postgres";

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** The admin URL of the PostgreSQL server to test against, or null for PGlite only. */
export async function postgresAdminUrl(): Promise<string | null> {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  if (process.env.TEST_WITHOUT_POSTGRES === "1") return null;
  return (await answers("127.0.0.1", 5432)) ? DEFAULT_PG_URL : null;
}

export function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Names are per test run, so two runs on one server (two developers, CI) never collide. */
export const templateDb = (runId: string) => `stackshift_t${runId}_template`;
export const workerDb = (runId: string, worker: string) => `stackshift_t${runId}_w${worker}`;
