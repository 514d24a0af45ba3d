// `npm run soak:fuzz [-- --runs N --seed S]`: the fuzz test of tests/integration/fuzz.test.ts with
// 10,000 inputs (or N) and a new seed each run (or S), printed so a failure can be replayed with
// `npm run soak:fuzz -- --seed S`. It prints the figures the test reports.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: { runs: { type: "string", default: "10000" }, seed: { type: "string" } },
});
const seed = values.seed ?? String(Math.floor(Math.random() * 2 ** 31));
console.log(`soak:fuzz: ${values.runs} inputs, seed ${seed}`);
const result = spawnSync(
  path.join(root, "node_modules/.bin/vitest"),
  ["run", "--project", "integration", "tests/integration/fuzz.test.ts"],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, FUZZ_RUNS: values.runs, FUZZ_SEED: seed },
  },
);
process.exit(result.status ?? 1);
