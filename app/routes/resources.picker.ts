import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadPickerPage } from "~/web/picker.server";
import { listParams } from "~/web/list-query";
import { requireApiUser } from "~/web/session.server";

/**
 * The project picker once JavaScript runs: the caller's projects matching `?q=`, a page at a
 * time after `?cursor=` ('Load more'), with the match count.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  // Never fails: an over-long search is cut rather than refused (it only filters a list), and a
  // cursor that is not ours starts the list over (loadPickerPage).
  return loadPickerPage(user, listParams(new URL(request.url).searchParams));
}
