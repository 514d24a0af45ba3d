// The environment of a child process we start (the server, a script) from a test or a soak.

/**
 * This process's environment without a test runner's variables (VITEST would switch the Remix
 * plugin off in a build, NODE_ENV=test would change the server), plus `extra`.
 * @param {Record<string, string | undefined>} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
export function childEnv(extra = {}) {
  const {
    VITEST: _v,
    VITEST_POOL_ID: _p,
    VITEST_WORKER_ID: _w,
    NODE_ENV: _n,
    ...inherited
  } = process.env;
  return /** @type {NodeJS.ProcessEnv} */ ({ ...inherited, ...extra });
}
