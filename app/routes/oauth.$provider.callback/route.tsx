import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SUPPORT_EMAIL } from "~/components/route-error";
import { OAuthReturn } from "~/components/oauth/oauth-return";
import { completeOAuth, type OAuthOutcome } from "./oauth-return.server";
import {
  isOAuthVendor,
  OAUTH_FAILED,
  OAUTH_TEXTS,
  type OAuthVendor,
} from "~/services/integrations";
import { INVALID_STATE_MESSAGE, peekLink } from "~/services/integrations/index.server";
import { oauthReturnSchema } from "~/services/integrations";
import { readForm } from "~/web/http.server";
import { notFound } from "~/utils/responses.server";
import { getSession, requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${OAUTH_TEXTS[data.vendor].vendor} authorization | StackShift` : "StackShift" },
  { name: "robots", content: "noindex" },
];

function vendorOf(provider: string | undefined): OAuthVendor {
  if (!isOAuthVendor(provider)) notFound();
  return provider as OAuthVendor;
}

/** Back to the project with the outcome as a toast: the page without a window to report to. */
function redirectBack(vendor: OAuthVendor, studioId: string, outcome: OAuthOutcome | "denied") {
  const texts = OAUTH_TEXTS[vendor];
  const to = texts.back(studioId);
  switch (outcome) {
    case "linked":
      return redirectWithToast(to, { type: "success", title: texts.success });
    case "conflict":
      return redirectWithToast(to, { type: "error", title: texts.conflict });
    case "refused":
      return redirectWithToast(to, { type: "error", title: INVALID_STATE_MESSAGE });
    case "denied":
      return redirectWithToast(to, {
        type: "error",
        title: `${texts.vendor} authorization was cancelled.`,
      });
    default:
      return redirectWithToast(to, {
        type: "error",
        title: OAUTH_FAILED,
        description: `Refresh the page and try again. If it keeps failing, report it to ${SUPPORT_EMAIL}.`,
      });
  }
}

/**
 * {vendor}'s return page: /oauth/{instagram|stripe}/callback?code=&state=. Only a state this user
 * and session started, for the project it names, within ten minutes and not used yet, leads to
 * an exchange; anything else is refused without touching the code. A round trip started without
 * JavaScript (a tab) is completed here and sent back to the project; one started in a popup
 * shows this page, which completes it through the JSON API and reports to its opener.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const vendor = vendorOf(params.provider);
  const user = await requireUser(request);
  const session = await getSession(request);
  const search = new URL(request.url).searchParams;
  const state = search.get("state") ?? "";
  const link = state
    ? await peekLink({ provider: vendor, userId: user.id, sessionId: session.id ?? "" }, state)
    : null;
  if (!link) {
    return { vendor, outcome: "refused" as const, studioId: null, code: null, state: null };
  }
  const code = search.get("code") ?? "";
  const denied = Boolean(search.get("error")) || !code;
  if (link.mode === "tab") {
    if (denied) throw await redirectBack(vendor, link.studioId, "denied");
    const done = await completeOAuth(vendor, user, session.id ?? "", { code, state });
    throw await redirectBack(vendor, link.studioId, done.outcome);
  }
  return {
    vendor,
    outcome: denied ? ("denied" as const) : ("authorizing" as const),
    studioId: link.studioId,
    code: denied ? null : code,
    state,
  };
}

/** The popup's fallback when its scripts did not run: complete here and go back. */
export async function action({ request, params }: ActionFunctionArgs) {
  const vendor = vendorOf(params.provider);
  const user = await requireUser(request);
  const session = await getSession(request);
  const parsed = oauthReturnSchema.safeParse(Object.fromEntries(await readForm(request, 8 * 1024)));
  if (!parsed.success) throw new Response("Bad Request", { status: 400 });
  const link = await peekLink(
    { provider: vendor, userId: user.id, sessionId: session.id ?? "" },
    parsed.data.state,
  );
  if (!link) return redirectWithToast("/sites", { type: "error", title: INVALID_STATE_MESSAGE });
  const done = await completeOAuth(vendor, user, session.id ?? "", parsed.data);
  return redirectBack(vendor, link.studioId, done.outcome);
}

export default function OAuthCallback() {
  const data = useLoaderData<typeof loader>();
  return <OAuthReturn {...data} />;
}
