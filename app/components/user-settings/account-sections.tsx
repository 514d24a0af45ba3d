import { getFormProps, getInputProps } from "@conform-to/react";
import { IntentForm } from "~/components/ui/intent-form";
import { Form, Link, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { LocalDate } from "~/components/local-date";
import { urlWith } from "~/components/shell/shell-helpers";
import { Button, buttonClass } from "~/components/ui/button";
import { Field, FormError } from "~/components/ui/field";
import { ownAria, useIntentForm } from "~/components/ui/use-intent-form";
import {
  deleteAccountSchema,
  emailChangeSchema,
  nameSchema,
  passwordChangeSchema,
  splashSchema,
} from "~/services/accounts";
import type { AccountView, SessionView } from "~/services/accounts/index.server";
import { useIsPending } from "~/utils/use-is-pending";
import { SectionCard } from "~/components/ui/section-card";
import { TableHead } from "~/components/ui/table-head";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";

export const USER_SETTINGS_INTENTS = {
  name: "account-name",
  email: "account-email",
  password: "account-password",
  endSession: "session-end",
  endOthers: "sessions-end-others",
  preferences: "preferences",
  deleteAccount: "account-delete",
} as const;
const I = USER_SETTINGS_INTENTS;

/** A browser's name from its user agent, roughly: enough to tell sessions apart. */
function deviceOf(agent: string | null) {
  if (!agent) return "Unknown browser";
  const browser = /Edg\//.test(agent)
    ? "Edge"
    : /Firefox\//.test(agent)
      ? "Firefox"
      : /Chrome\//.test(agent)
        ? "Chrome"
        : /Safari\//.test(agent)
          ? "Safari"
          : "Browser";
  const os = /Windows/.test(agent)
    ? "Windows"
    : /Android/.test(agent)
      ? "Android"
      : /iPhone|iPad/.test(agent)
        ? "iOS"
        : /Mac OS X/.test(agent)
          ? "macOS"
          : /Linux/.test(agent)
            ? "Linux"
            : "";
  return os ? `${browser} on ${os}` : browser;
}

/**
 * The settings page's sections: Profile (name; e-mail through a confirmation link), Password
 * (or where single sign-on manages it), Sessions (each signed out on its own, or all others),
 * Preferences (colour mode, the studio splash) and Delete account (a confirmation).
 */
/**
 * Single sign-on started from the settings: links it to this account (the holder is signed in),
 * or, for an account without a password, signs in afresh before a change that needs the holder.
 */
function SsoForm({ label }: { label: string }) {
  return (
    <Form method="post" action="/auth/oidc" className="inline">
      <input type="hidden" name="redirectTo" value="/sites/user-settings" />
      <Button type="submit" variant="secondary">
        {label}
      </Button>
    </Form>
  );
}

export function AccountSections({
  account,
  sessions,
  sso,
  theme,
  deleteTyped,
}: {
  account: AccountView;
  sessions: SessionView[];
  sso: { enabled: boolean; fresh: boolean };
  /** What the delete dialog had typed before /auth/confirm (stashedForm). */
  deleteTyped?: Record<string, string | string[]> | null;
  theme: "light" | "dark";
  now: string;
}) {
  // Each form shows its own reply only (its id is its intent): the e-mail and password forms
  // share a field name.
  const [nameForm, nameFields] = useIntentForm(I.name, nameSchema, {
    defaultValue: { name: account.name },
  });
  const [emailForm, emailFields] = useIntentForm(I.email, emailChangeSchema, {
    defaultValue: { email: account.email },
  });
  const [passwordForm, passwordFields] = useIntentForm(I.password, passwordChangeSchema);
  const [preferencesForm, preferencesFields] = useIntentForm(I.preferences, splashSchema, {
    defaultValue: { hideStudioSplash: account.hideStudioSplash },
  });
  const typedEmail = deleteTyped?.typedEmail;
  const [deleteForm, deleteFields] = useIntentForm(I.deleteAccount, deleteAccountSchema, {
    defaultValue: { typedEmail: typeof typedEmail === "string" ? typedEmail : undefined },
  });
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const back = urlWith(location.pathname, location.search, { dialog: null });
  const close = () => navigate(back, { replace: true, preventScrollReset: true });
  const savingName = useIsPending({ intent: I.name });
  const savingEmail = useIsPending({ intent: I.email });
  const savingPassword = useIsPending({ intent: I.password });
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <SectionCard id="profile" title="Profile">
        <IntentForm form={nameForm} className="space-y-3">
          <Field label="Name" autoComplete="name" field={nameFields.name} />
          <Button type="submit" disabled={savingName}>
            {savingName ? "Saving..." : "Save name"}
          </Button>
        </IntentForm>
        <IntentForm form={emailForm} className="space-y-3">
          <Field
            label="E-mail"
            autoComplete="email"
            hint="A link is mailed to the new address; the change happens when you confirm it there, signed in here."
            field={emailFields.email}
            type="email"
          />
          {!account.hasPassword ? (
            emailFields.currentPassword.errors ? (
              <p className="text-sm text-red-600 dark:text-red-400">
                {emailFields.currentPassword.errors[0]}
              </p>
            ) : null
          ) : (
            <Field
              label="Current password"
              autoComplete="current-password"
              field={emailFields.currentPassword}
              type="password"
            />
          )}
          {account.pendingEmail ? (
            <p className="text-sm text-slate-600 dark:text-slate-300">
              Waiting for confirmation of {account.pendingEmail}.
            </p>
          ) : null}
          <Button type="submit" variant="secondary" disabled={savingEmail}>
            {savingEmail ? "Sending..." : "Change e-mail"}
          </Button>
        </IntentForm>
        {account.ssoOnly && sso.enabled ? (
          <div className="space-y-2 text-sm text-slate-600 dark:text-slate-300">
            <p>
              {sso.fresh
                ? "You signed in with single sign-on a moment ago: you may change your e-mail or delete the account."
                : "To change your e-mail or delete the account, sign in with single sign-on again first."}
            </p>
            {sso.fresh ? null : <SsoForm label="Sign in again with single sign-on" />}
          </div>
        ) : null}
        {!account.ssoOnly && !account.ssoLinked && sso.enabled ? (
          <div className="space-y-2 text-sm text-slate-600 dark:text-slate-300">
            <p>Sign in with your organisation&apos;s single sign-on as well as your password.</p>
            <SsoForm label="Link single sign-on" />
          </div>
        ) : null}
      </SectionCard>

      <SectionCard id="password" title="Password">
        {account.ssoOnly ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            You sign in with single sign-on: your password is managed by your organisation&apos;s
            identity provider, not here.
          </p>
        ) : !account.hasPassword ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Your account has no password now: it stopped working when a change of your e-mail
            address was undone. Choose a new one with{" "}
            <Link to="/auth/forgot" className="text-brand underline">
              Forgot password
            </Link>
            .
          </p>
        ) : (
          <IntentForm form={passwordForm} className="space-y-3">
            <Field
              label="Current password"
              autoComplete="current-password"
              field={passwordFields.currentPassword}
              type="password"
            />
            <Field
              label="New password"
              autoComplete="new-password"
              hint="At least 8 characters. Your other sessions are signed out."
              field={passwordFields.newPassword}
              type="password"
            />
            <Field
              label="Repeat the new password"
              autoComplete="new-password"
              field={passwordFields.confirmPassword}
              type="password"
            />
            <Button type="submit" disabled={savingPassword}>
              {savingPassword ? "Changing..." : "Change password"}
            </Button>
          </IntentForm>
        )}
      </SectionCard>

      <div className="lg:col-span-2">
        <SectionCard id="sessions" title="Sessions">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Your active sessions</caption>
            <TableHead
              columns={[
                "Device",
                "Signed in",
                "Last seen",
                <span className="sr-only">Actions</span>,
              ]}
            />
            <tbody>
              {sessions.map((s) => (
                <tr key={s.handle} className="border-t border-slate-200 dark:border-slate-800">
                  <td className="py-2 pr-3">
                    <span title={s.userAgent ?? undefined}>{deviceOf(s.userAgent)}</span>
                    {s.current ? (
                      <span className="ml-2 font-medium text-brand">This session</span>
                    ) : null}
                  </td>
                  <td className="py-2 pr-3">
                    <LocalDate value={s.createdAt} />
                  </td>
                  <td className="py-2 pr-3">
                    <LocalDate value={s.lastSeenAt} />
                  </td>
                  <td className="py-2">
                    {s.current ? null : (
                      <Form method="post" replace preventScrollReset>
                        <input type="hidden" name="intent" value={I.endSession} />
                        <input type="hidden" name="session" value={s.handle} />
                        <Button type="submit" variant="secondary" className="px-3 py-1">
                          Sign out
                          <span className="sr-only"> the session of {deviceOf(s.userAgent)}</span>
                        </Button>
                      </Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {sessions.length > 1 ? (
            <Form method="post" replace preventScrollReset>
              <input type="hidden" name="intent" value={I.endOthers} />
              <Button type="submit" variant="secondary">
                Sign out everywhere else
              </Button>
            </Form>
          ) : null}
        </SectionCard>
      </div>

      <SectionCard id="preferences" title="Preferences">
        <Form method="post" action="/resources/theme" className="flex flex-wrap items-center gap-3">
          <input type="hidden" name="redirectTo" value="/sites/user-settings" />
          <span className="text-sm">Colour mode: {theme === "dark" ? "Dark" : "Light"}</span>
          <Button
            type="submit"
            name="theme"
            value={theme === "dark" ? "light" : "dark"}
            variant="secondary"
          >
            Use {theme === "dark" ? "light" : "dark"} mode
          </Button>
        </Form>
        <IntentForm form={preferencesForm} className="space-y-3">
          <label className="flex items-center gap-2 text-sm">
            <input
              key={preferencesFields.hideStudioSplash.key}
              {...ownAria(getInputProps(preferencesFields.hideStudioSplash, { type: "checkbox" }))}
              className="h-4 w-4 rounded border-slate-300"
            />
            Do not show the studio splash before opening a studio
          </label>
          <Button type="submit" variant="secondary">
            Save preferences
          </Button>
        </IntentForm>
      </SectionCard>

      <SectionCard id="delete-account" title="Delete account">
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Deleting your account removes you from every project you are a member of. Projects you own
          must be transferred or deleted first.
        </p>
        <Link
          to={urlWith(location.pathname, location.search, { dialog: "delete-account" })}
          preventScrollReset
          className={buttonClass("danger")}
        >
          Delete account
        </Link>
      </SectionCard>

      {searchParams.get("dialog") === "delete-account" ? (
        <ConfirmDialog
          title="Delete your account?"
          description={`The account ${account.email}, its memberships and sessions are deleted for good.`}
          intent={I.deleteAccount}
          confirmLabel="Yes, delete my account"
          busyLabel="Deleting..."
          back={back}
          onClose={close}
          formProps={getFormProps(deleteForm)}
        >
          <FormError errors={deleteForm.errors} />
          {!account.hasPassword ? (
            <Field
              label="Type your e-mail address to confirm"
              autoComplete="off"
              field={deleteFields.typedEmail}
              type="email"
            />
          ) : (
            <Field
              label="Your password"
              autoComplete="current-password"
              field={deleteFields.currentPassword}
              type="password"
            />
          )}
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
