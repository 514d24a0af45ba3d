import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import {
  AccountSections,
  USER_SETTINGS_INTENTS as I,
} from "~/components/user-settings/account-sections";
import { SupportHistory } from "~/components/user-settings/support-history";
import { buttonClass } from "~/components/ui/button";
import { supportHistoryOf } from "~/services/activity/index.server";
import { revokedTokensText } from "~/services/accounts";
import { RateLimitedError } from "~/services/core";
import {
  deleteAccountSchema,
  emailChangeSchema,
  nameSchema,
  passwordChangeSchema,
  sessionHandleSchema,
  splashSchema,
  USER_SETTINGS_MESSAGES as M,
} from "~/services/accounts";
import {
  changePassword,
  deleteAccount,
  getAccount,
  listSessions,
  requestEmailChange,
  signOutOtherSessions,
  signOutSession,
  updateName,
} from "~/services/accounts/index.server";
import { setHideSplash } from "~/services/studio/index.server";
import { dispatchIntent } from "~/web/intents.server";
import { oidcEnabled } from "~/web/oidc.server";
import { noteProof, proofIsRecent, requireRecentProof, stashedForm } from "~/web/proof.server";
import { getSession, requireUser, sessionStorage, ssoIsFresh } from "~/web/session.server";
import { getTheme } from "~/utils/theme.server";
import { redirectWithToast, toastHeader } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "User Settings | StackShift" }];

const PAGE = "/sites/user-settings";

/** After a recovery that revoked tokens the page says how many and offers to make new ones. */
const afterRecovery = (tokens: number) =>
  tokens > 0 ? `${PAGE}?tokensRevoked=${tokens}#api-tokens` : PAGE;

/** /sites/user-settings: the signed-in user's profile, password, sessions, preferences. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const session = await getSession(request);
  const [account, sessions, supportHistory, deleteTyped] = await Promise.all([
    getAccount(user),
    listSessions(user, session.id ?? ""),
    supportHistoryOf(user),
    // What the delete dialog had typed before /auth/confirm (app/web/proof.server.ts).
    stashedForm(request, I.deleteAccount),
  ]);
  // Only a count to show (from the redirect after a recovery): nothing is read or changed by it.
  const revoked = Number(new URL(request.url).searchParams.get("tokensRevoked"));
  return {
    account,
    tokensRevoked: Number.isInteger(revoked) && revoked > 0 && revoked <= 10_000 ? revoked : 0,
    sessions,
    sso: { enabled: oidcEnabled(), fresh: ssoIsFresh(session) },
    twoFactor: user.hasSecondFactor === true,
    supportHistory,
    deleteTyped,
    theme: await getTheme(request),
    now: new Date().toISOString(),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const session = await getSession(request);
  const clientIp = context.clientIp ?? "unknown";
  const ssoFresh = ssoIsFresh(session);
  return dispatchIntent(
    request,
    {
      [I.name]: async ({ formData, reply }) => {
        const s = parseWithZod(formData, { schema: nameSchema });
        if (s.status !== "success") return reply({ result: s.reply() }, 400);
        await updateName(user, s.value.name);
        return redirectWithToast(PAGE, { type: "success", title: M.nameSaved });
      },
      [I.email]: async ({ formData, reply }) => {
        const s = parseWithZod(formData, { schema: emailChangeSchema });
        if (s.status !== "success") {
          return reply({ result: s.reply({ hideFields: ["currentPassword"] }) }, 400);
        }
        await requestEmailChange(user, s.value.email, {
          currentPassword: s.value.currentPassword,
          ssoFresh,
          clientIp,
        });
        // The current password was right (or single sign-on fresh): a proof (decision 039).
        await noteProof(request);
        return redirectWithToast(PAGE, {
          type: "success",
          title: M.emailSent,
          description: `Open the link we sent to ${s.value.email.toLowerCase()} to use it.`,
        });
      },
      [I.password]: async ({ formData, reply }) => {
        const s = parseWithZod(formData, { schema: passwordChangeSchema });
        if (s.status !== "success") {
          return reply(
            {
              result: s.reply({
                hideFields: ["currentPassword", "newPassword", "confirmPassword"],
              }),
            },
            400,
          );
        }
        const ended = await changePassword(user, session.id ?? "", s.value, clientIp);
        // The current password was right: a proof (decision 039).
        await noteProof(request);
        return redirectWithToast(afterRecovery(ended.tokens), {
          type: "success",
          title: M.passwordChanged,
          description: ["Your other sessions were signed out.", revokedTokensText(ended.tokens)]
            .filter(Boolean)
            .join(" "),
        });
      },
      [I.endSession]: async ({ formData, reply }) => {
        const s = parseWithZod(formData, { schema: sessionHandleSchema });
        if (s.status !== "success") return reply({ result: s.reply() }, 400);
        await signOutSession(user, session.id ?? "", s.value.session);
        return redirectWithToast(PAGE, { type: "success", title: M.sessionEnded });
      },
      [I.endOthers]: async () => {
        const ended = await signOutOtherSessions(user, session.id ?? "");
        const n = ended.sessions;
        return redirectWithToast(afterRecovery(ended.tokens), {
          type: "success",
          title: M.othersEnded,
          description: [
            `${n} other session${n === 1 ? "" : "s"} signed out.`,
            revokedTokensText(ended.tokens),
          ]
            .filter(Boolean)
            .join(" "),
        });
      },
      [I.preferences]: async ({ formData, reply }) => {
        const s = parseWithZod(formData, { schema: splashSchema });
        if (s.status !== "success") return reply({ result: s.reply() }, 400);
        await setHideSplash(user, s.value.hideStudioSplash);
        return redirectWithToast(PAGE, { type: "success", title: M.preferencesSaved });
      },
      [I.deleteAccount]: async ({ formData, reply }) => {
        const s = parseWithZod(formData, { schema: deleteAccountSchema });
        if (s.status !== "success") return reply({ result: s.reply() }, 400);
        // A password typed here is checked by deleteAccount in this very request: a proof made
        // now, counted like a login. Without one (an account that signs in with single sign-on)
        // a recent proof is asked first, which /auth/confirm gives (decision 039).
        if (!s.value.currentPassword) await requireRecentProof(request, user, { formData });
        await deleteAccount(user, {
          ...s.value,
          ssoFresh: ssoFresh || proofIsRecent(session),
          clientIp,
        });
        // The session row went with the account; the cookie goes too.
        const headers = new Headers();
        headers.append("Set-Cookie", await sessionStorage().destroySession(session));
        headers.append(
          "Set-Cookie",
          await toastHeader({ type: "success", title: "Your account has been deleted" }),
        );
        return redirect("/auth/login", { headers });
      },
    },
    {
      maxBytes: 8 * 1024,
      onError: (error, { intent, reply }) => {
        let fields = "fieldErrors" in error ? (error.fieldErrors as Record<string, string[]>) : {};
        // A limit: said beside its field (429 with Retry-After): too many wrong current passwords
        // beside the password, too many e-mail changes or mails to the address beside the Email.
        if (error instanceof RateLimitedError) {
          fields = { [error.field ?? "currentPassword"]: [error.message] };
        }
        if (intent === I.deleteAccount && Object.keys(fields).length > 0) {
          // A wrong password or address: said beside the field of the dialog, which stays open.
          return reply({ result: { status: "error", error: fields } }, error);
        }
        if (intent === I.deleteAccount) {
          return redirectWithToast(PAGE, {
            type: "error",
            title: M.deleteRefused,
            description: error.message,
          });
        }
        if (Object.keys(fields).length > 0) {
          return reply({ result: { status: "error", error: fields } }, error);
        }
        return redirectWithToast(PAGE, { type: "error", title: error.message });
      },
    },
  );
}

export default function UserSettingsPage() {
  const data = useLoaderData<typeof loader>();
  return (
    <article className="space-y-8">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold">User Settings</h1>
        <p className="text-slate-600 dark:text-slate-300">
          Your account, signed in as {data.account.email}.
        </p>
      </header>
      <AccountSections {...data} />
      <section
        aria-labelledby="two-factor-heading"
        className="space-y-2 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
      >
        <h2 id="two-factor-heading" className="text-lg font-semibold">
          Two-factor sign-in
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {data.twoFactor
            ? "On: signing in with your password also asks for your second factor."
            : "Off: your password alone signs you in. Add an authenticator app or a passkey."}
        </p>
        <Link to="/sites/user-settings/two-factor" className={buttonClass("secondary")}>
          Manage two-factor sign-in
        </Link>
      </section>
      <section
        aria-labelledby="notifications-heading"
        className="space-y-2 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
      >
        <h2 id="notifications-heading" className="text-lg font-semibold">
          Notifications
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          E-mails about your projects: failed deploys, domains, people, by your role in each.
        </p>
        <Link to="/sites/user-settings/notifications" className={buttonClass("secondary")}>
          Manage notifications
        </Link>
      </section>
      <section
        id="api-tokens"
        aria-labelledby="api-tokens-heading"
        className="space-y-2 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
      >
        <h2 id="api-tokens-heading" className="text-lg font-semibold">
          API tokens
        </h2>
        {data.tokensRevoked > 0 ? (
          <p role="status" className="rounded-md bg-amber-50 p-3 text-sm dark:bg-amber-950">
            {revokedTokensText(data.tokensRevoked)} Make new ones for the scripts you still use.
          </p>
        ) : null}
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Personal access tokens let your scripts and CI pipelines call the StackShift API as you.
        </p>
        <Link to="/sites/user-settings/tokens" className={buttonClass("secondary")}>
          {data.tokensRevoked > 0 ? "Make new API tokens" : "Manage API tokens"}
        </Link>
      </section>
      <SupportHistory entries={data.supportHistory} />
    </article>
  );
}
