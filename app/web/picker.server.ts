import type { User } from "~/services/accounts/index.server";
import { InvalidError } from "~/services/core";
import { decodeCursor } from "~/services/core/index.server";
import { countProjects, listProjects } from "~/services/projects/index.server";
import { PICKER_LIMIT, toPickerProject, type PickerPage } from "~/components/shell/shell-helpers";

/**
 * One page of the top bar's picker: the caller's projects matching the search, newest first, with
 * the match count. The layout loader (`?pq=&pcursor=`, no JavaScript) and /resources/picker
 * (`?q=&cursor=`, the popover's fetchers) both answer with it.
 */
export async function loadPickerPage(
  user: User,
  opts: { query: string; cursor: string | null },
): Promise<PickerPage> {
  // The cursor only moves a list along: one that is not ours starts it over instead of failing
  // the whole page (the layout renders every signed-in page).
  const cursor = opts.cursor && isCursor(opts.cursor) ? opts.cursor : null;
  const query = opts.query || undefined;
  const [page, total] = await Promise.all([
    listProjects(user, { query, cursor, limit: PICKER_LIMIT }),
    countProjects(user, { query }),
  ]);
  return {
    projects: page.data.map(toPickerProject),
    query: opts.query,
    total,
    cursor,
    nextCursor: page.nextCursor,
  };
}

function isCursor(cursor: string) {
  try {
    decodeCursor(cursor);
    return true;
  } catch (error) {
    if (error instanceof InvalidError) return false;
    throw error;
  }
}
