import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { PICKER_LIMIT, toPickerProject } from "~/components/shell/shell-helpers";
import { listProjects } from "~/services/projects.server";
import { parseInput } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

// Never fails: an over-long search is cut rather than refused (it only filters a list).
const querySchema = z.object({
  q: z
    .string()
    .default("")
    .transform((q) => q.trim().toLowerCase().slice(0, 200)),
});

/** The project picker's search once JavaScript runs: the caller's projects matching `?q=`. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const url = new URL(request.url);
  const { q } = parseInput(querySchema, { q: url.searchParams.get("q") ?? undefined });
  const { data } = await listProjects(user, { query: q || undefined, limit: PICKER_LIMIT });
  return { projects: data.map(toPickerProject) };
}
