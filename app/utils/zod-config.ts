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
 */
import { z } from "zod";

z.config({ jitless: true });
