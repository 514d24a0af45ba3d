// `npm run soak:boot`: starts several servers at the same moment on a new, empty PostgreSQL
// database, as a container deployment of N instances does on its first day, and checks that every
// one of them answers /healthz. Repeated on a fresh database each round (docs/reliability.md,
// docs/decisions/027-booting-together.md).
//
//   --rounds N          fresh databases to start on (default 10)
//   --processes N       servers started together per round (default 4)
//   --web-concurrency N server processes in each server (default 1; `npm start`'s own default is
//                       one per core)
//   --build             build first when the build is stale (npm start does the same)
import { buildIfStale } from "../build.mjs";
import { appendRunLog, machineLine } from "../run-log.mjs";
import {
  flag,
  freePort,
  freshDatabase,
  postgresAvailable,
  spawnServer,
  stopServer,
  waitForHealth,
  wholeNumber,
} from "./lib.mjs";

const rounds = wholeNumber("rounds", 10, { min: 1 });
const processes = wholeNumber("processes", 4, { min: 1 });
const webConcurrency = wholeNumber("web-concurrency", 1, { min: 1 });

if (!(await postgresAvailable())) {
  console.error("soak:boot needs PostgreSQL (SOAK_DATABASE_URL or 127.0.0.1:5432).");
  process.exit(2);
}
if (!buildIfStale()) process.exit(1);

/** One round: a fresh database, `processes` servers spawned in the same tick, all must answer. */
/** @param {number} n */
async function round(n) {
  const database = await freshDatabase("postgres", `boot${n}`);
  const started = Date.now();
  /** @type {import("./lib.mjs").SoakServer[]} */
  const servers = [];
  for (let i = 0; i < processes; i += 1) {
    const port = await freePort();
    servers.push(
      spawnServer({
        port,
        env: {
          DATABASE_URL: database.url,
          DATA_DIR: database.dataDir,
          WEB_CONCURRENCY: String(webConcurrency),
          // Secrets shared by the instances, as a real deployment configures them.
          SESSION_SECRET: "soak-boot-session-secret-0123456789abcdef",
          ENCRYPTION_KEY: "c29hay1ib290LWVuY3J5cHRpb24ta2V5LTAxMjM0NTY=",
        },
      }),
    );
  }
  const failures = (
    await Promise.all(servers.map((server) => waitForHealth(server, 240_000)))
  ).flatMap((why, i) => (why ? [{ i, why, log: servers[i].log() }] : []));
  const seconds = (Date.now() - started) / 1000;
  await Promise.all(servers.map((server) => stopServer(server)));
  await database.drop();
  return { failures, seconds };
}

let failed = 0;
const times = [];
for (let n = 1; n <= rounds; n += 1) {
  const { failures, seconds } = await round(n);
  times.push(seconds);
  const answered = processes - failures.length;
  console.log(
    `round ${n}/${rounds}: ${answered} of ${processes} servers answered /healthz (${seconds.toFixed(1)} s)`,
  );
  for (const failure of failures) {
    failed += 1;
    console.log(`  server ${failure.i + 1}: ${failure.why}\n${failure.log.slice(-3000)}`);
  }
}
const slowest = Math.max(...times);
const result =
  `${rounds} fresh databases x ${processes} servers (WEB_CONCURRENCY=${webConcurrency}): ` +
  `${rounds * processes - failed} answered, ${failed} failed; slowest round ${slowest.toFixed(1)} s`;
console.log(`\nsoak:boot: ${result}`);
// `--record` (the npm script passes it): the figures go to docs/runs/soak-boot.md as printed.
if (flag("record")) {
  const written = appendRunLog("soak-boot", {
    heading: "Starting together (`npm run soak:boot`)",
    title: failed === 0 ? "ok" : "FAILED",
    lines: [`Machine: ${machineLine({ packages: ["pg", "pg-boss"] })}.`, "", `- ${result}`],
  });
  console.log(`recorded in ${written}`);
}
process.exit(failed === 0 ? 0 : 1);
