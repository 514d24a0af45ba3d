/**
 * zod parses object schemas without generating code (`jitless`). Otherwise zod tries `new
 * Function` when it makes an object schema, to see whether it may compile a faster parser: the
 * page's Content-Security-Policy rightly refuses eval, and the browser reports the refusal as a
 * violation even though zod catches it. The server follows the same path so that both sides parse
 * the same way.
 *
 * zod reads the setting when a schema is made, not when it parses, so this module must run before
 * any module that makes one: it is the first import of entry.server.tsx (the server build runs it
 * first), root.tsx (the first route module the browser runs) and entry.client.tsx. package.json
 * lists it under `sideEffects`, or the build would drop an import that uses none of its exports.
 * It writes zod's global configuration object (`globalThis.__zod_globalConfig`, which zod
 * creates or adopts when it loads: `z.config()` returns it) instead of importing zod: every page
 * loads this module and most load no schema; importing even zod's core `config` put 4 KB gzip of
 * zod on every first load. zod-config.test.ts fails if zod stops reading that object.
 */
const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(scope.__zod_globalConfig ??= {}).jitless = true;
