import { memo } from "react";
import { lazyPart } from "~/utils/page-load";

/**
 * The invite form, loaded on its own: its as-you-type validation brings conform and zod (about
 * 38 KB gzip) that nothing else on the dashboard needs (docs/performance.md). The server renders
 * it in place, so it is the plain form that works without JavaScript. Memoised: the section
 * re-renders when it hydrates, and the form's props do not change then.
 */
export const LazyInviteMemberForm = memo(
  lazyPart("invite-member-form", () =>
    import("./invite-member-form").then((m) => m.InviteMemberForm),
  ),
);
