import type { User } from "~/services/accounts/index.server";
import {
  ACTIVITY_DEFAULT_LIMIT,
  ACTIVITY_MAX_LIMIT,
  listActivity,
  type ActivityPage,
} from "~/services/activity/index.server";
import { activityExpanded } from "~/components/activity/activity-query";

export type ActivityLogData = ActivityPage & { expanded: boolean; studioId: string };

/**
 * For a page loader: the props of `ActivityLogSection`. The 3 latest events, or up to 1000 when
 * the URL has `?log=all` (the no-JavaScript 'Show more'). NotFoundError for non-members.
 */
export async function loadActivityLog(
  user: User,
  studioId: string,
  url: URL,
): Promise<ActivityLogData> {
  const expanded = activityExpanded(url);
  const page = await listActivity(user, studioId, {
    limit: expanded ? ACTIVITY_MAX_LIMIT : ACTIVITY_DEFAULT_LIMIT,
  });
  return { ...page, expanded, studioId };
}
