import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { loadPickerPage } from "~/components/shell/picker.server";
import { parseInput } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

// Never fails: an over-long search is cut rather than refused (it only filters a list), and a
// cursor that is not ours starts the list over (loadPickerPage).
const querySchema = z.object({
  q: z
    .string()
    .default("")
    .transform((q) => q.trim().toLowerCase().slice(0, 200)),
  cursor: z
    .string()
    .max(512)
    .optional()
    .catch(undefined)
    .transform((c) => c || null),
});

/**
 * The project picker once JavaScript runs: the caller's projects matching `?q=`, a page at a
 * time after `?cursor=` ('Load more'), with the match count.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const url = new URL(request.url);
  const input = parseInput(querySchema, {
    q: url.searchParams.get("q") ?? undefined,
    cursor: url.searchParams.get("cursor") ?? undefined,
  });
  return loadPickerPage(user, { query: input.q, cursor: input.cursor });
}
