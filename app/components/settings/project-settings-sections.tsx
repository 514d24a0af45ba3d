import { getInputProps } from "@conform-to/react";
import { IntentForm } from "~/components/ui/intent-form";
import { Link, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "~/utils/page-load";
import { urlWith } from "~/components/shell/shell-helpers";
import { Dialog, DialogCancelLink } from "~/components/ui/dialog";
import { SectionCard } from "~/components/ui/section-card";
import { Button, buttonClass } from "~/components/ui/button";
import { Field, FieldError, SelectField } from "~/components/ui/field";
import { ownAria, useIntentForm } from "~/components/ui/use-intent-form";
import {
  DELETE_PROJECT_INTENT,
  deleteProjectSchema,
  RENAME_INTENT,
  renameProjectSchema,
  REQUIRE_TWO_FACTOR_INTENT,
  requireTwoFactorSchema,
  TRANSFER_INTENT,
  transferOwnershipSchema,
} from "~/services/projects";
import type { ProjectSettingsView } from "~/services/projects/index.server";
import { useIsPending } from "~/utils/use-is-pending";

/** What a form had typed before /auth/confirm (stashedForm in app/web/proof.server.ts). */
type Stashed = Record<string, string | string[]> | null | undefined;
const stashedText = (stashed: Stashed, name: string) => {
  const value = stashed?.[name];
  return typeof value === "string" ? value : undefined;
};

/** The project's name: admins, the owner and platform admins rename it; others read it. */
export function RenameSection({ view }: { view: ProjectSettingsView }) {
  const [form, fields] = useIntentForm(RENAME_INTENT, renameProjectSchema, {
    defaultValue: { name: view.name },
  });
  const busy = useIsPending({ intent: RENAME_INTENT });
  return (
    <SectionCard id="project-name" title="Project name">
      {view.canRename ? (
        <IntentForm form={form} className="flex max-w-xl flex-wrap items-end gap-3">
          <div className="min-w-64 flex-1">
            <Field label="Name" field={fields.name} />
          </div>
          <Button type="submit" disabled={busy}>
            {busy ? "Renaming..." : "Rename"}
          </Button>
        </IntentForm>
      ) : (
        <p className="text-sm">{view.name}. Only admins can rename the project.</p>
      )}
    </SectionCard>
  );
}

/**
 * Transfer ownership (the owner only): to one of the project's accepted admins, with a box to
 * tick; the owner stays as an admin member.
 */
export function TransferSection({
  view,
  stashed,
}: {
  view: ProjectSettingsView;
  stashed?: Stashed;
}) {
  const [form, fields] = useIntentForm(TRANSFER_INTENT, transferOwnershipSchema, {
    defaultValue: {
      toUserId: stashedText(stashed, "toUserId") ?? "",
      confirm: stashedText(stashed, "confirm"),
    },
  });
  const busy = useIsPending({ intent: TRANSFER_INTENT });
  if (!view.transferTo) return null;
  return (
    <SectionCard id="transfer-ownership" title="Transfer ownership">
      {view.transferTo.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Ownership moves to an admin of the project. Invite one, or make a member an admin, first.
        </p>
      ) : (
        <IntentForm form={form} className="max-w-xl space-y-3">
          <SelectField label="New owner" field={fields.toUserId}>
            <option value="" disabled>
              Choose an admin
            </option>
            {view.transferTo.map((a) => (
              <option key={a.userId} value={a.userId}>
                {a.name ? `${a.name} (${a.email})` : a.email}
              </option>
            ))}
          </SelectField>
          <div>
            <label className="flex items-start gap-2 text-sm">
              <input
                key={fields.confirm.key}
                {...ownAria(getInputProps(fields.confirm, { type: "checkbox" }))}
                aria-invalid={fields.confirm.errors ? true : undefined}
                aria-describedby={fields.confirm.errors ? fields.confirm.errorId : undefined}
                className="mt-0.5 h-4 w-4 rounded border-slate-300"
              />
              I understand that I will no longer own this project and will stay as an admin.
            </label>
            <FieldError id={fields.confirm.errorId} errors={fields.confirm.errors} />
          </div>
          <Button type="submit" variant="danger" disabled={busy}>
            {busy ? "Transferring..." : "Transfer ownership"}
          </Button>
        </IntentForm>
      )}
    </SectionCard>
  );
}

/**
 * Delete project (the owner and platform admins): a confirmation at ?dialog=delete-project where
 * the project's name is typed; with JavaScript the button waits for it, the server checks it.
 */
export function DeleteProjectSection({
  view,
  stashed,
}: {
  view: ProjectSettingsView;
  stashed?: Stashed;
}) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const typedBefore = stashedText(stashed, "confirmName");
  const [form, fields] = useIntentForm(DELETE_PROJECT_INTENT, deleteProjectSchema, {
    defaultValue: { confirmName: typedBefore },
  });
  const busy = useIsPending({ intent: DELETE_PROJECT_INTENT });
  const [typed, setTyped] = useState(typedBefore ?? "");
  if (!view.canDelete) return null;
  const back = urlWith(location.pathname, location.search, { dialog: null });
  const close = () => navigate(back, { replace: true, preventScrollReset: true });
  return (
    <SectionCard id="delete-project" title="Delete project">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Deletes the project, its members, logs and form submissions at once, and its website and
        content studio at the providers shortly after. This cannot be undone.
      </p>
      <Link
        to={urlWith(location.pathname, location.search, { dialog: "delete-project" })}
        preventScrollReset
        className={buttonClass("danger")}
      >
        Delete project
      </Link>
      {searchParams.get("dialog") === "delete-project" ? (
        <Dialog
          open
          role="alertdialog"
          onOpenChange={(open) => {
            if (!open && !busy) close();
          }}
          title={`Delete ${view.name}?`}
          description="Type the project's name to confirm. Its website and content studio are removed too."
        >
          <IntentForm form={form} className="space-y-4">
            <Field
              label={`Type ${view.name} to confirm`}
              autoComplete="off"
              field={fields.confirmName}
              onInput={(event) => {
                const value = event.currentTarget.value;
                setTyped(value);
              }}
            />
            <div className="flex justify-end gap-3">
              <DialogCancelLink back={back} busy={busy} onClose={close} />
              <Button
                type="submit"
                variant="danger"
                disabled={busy || (hydrated && typed.trim() !== view.name)}
              >
                {busy ? "Deleting..." : "Delete project"}
              </Button>
            </div>
          </IntentForm>
        </Dialog>
      ) : null}
    </SectionCard>
  );
}

/**
 * Two-factor authentication (the owner switches it; everyone else reads it): when required,
 * nobody without a second factor opens the project's pages or reaches it with their tokens
 * (decision 042). A checkbox and a Save button, so it works without JavaScript.
 */
export function SecondFactorSection({ view }: { view: ProjectSettingsView }) {
  const [form, fields] = useIntentForm(REQUIRE_TWO_FACTOR_INTENT, requireTwoFactorSchema, {
    defaultValue: { requireTwoFactor: view.requireTwoFactor ? "on" : undefined },
  });
  const busy = useIsPending({ intent: REQUIRE_TWO_FACTOR_INTENT });
  return (
    <SectionCard id="two-factor" title="Two-factor authentication">
      {view.canRequireTwoFactor ? (
        <IntentForm form={form} className="max-w-xl space-y-3">
          <div>
            <label className="flex items-start gap-2 text-sm">
              <input
                key={fields.requireTwoFactor.key}
                {...ownAria(getInputProps(fields.requireTwoFactor, { type: "checkbox" }))}
                aria-invalid={fields.requireTwoFactor.errors ? true : undefined}
                aria-describedby={
                  fields.requireTwoFactor.errors ? fields.requireTwoFactor.errorId : undefined
                }
                className="mt-0.5 h-4 w-4 rounded border-slate-300"
              />
              Require a second factor of every member
            </label>
            <p className="mt-1 text-xs text-slate-500">
              Members without an authenticator app or a passkey are asked to set one up before they
              see the project, and their API tokens are refused for it.
            </p>
            <FieldError
              id={fields.requireTwoFactor.errorId}
              errors={fields.requireTwoFactor.errors}
            />
          </div>
          <Button type="submit" variant="secondary" disabled={busy}>
            {busy ? "Saving..." : "Save"}
          </Button>
        </IntentForm>
      ) : (
        <p className="text-sm">
          {view.requireTwoFactor
            ? "Every member needs a second factor to open this project."
            : "Members do not need a second factor for this project. Only the owner can change this."}
        </p>
      )}
    </SectionCard>
  );
}

/** The way to the project's Webhooks page, for those who manage webhooks (owner and admins). */
export function WebhooksLinkSection({
  view,
  studioId,
}: {
  view: ProjectSettingsView;
  studioId: string;
}) {
  if (!view.canManageWebhooks) return null;
  return (
    <SectionCard id="webhooks-link" title="Webhooks">
      <p className="text-sm">
        Send this project&apos;s events (deployments, domains, members, form submissions) to your
        own tools as signed requests.
      </p>
      <Link
        to={`/sites/${encodeURIComponent(studioId)}/webhooks`}
        className={buttonClass("secondary")}
      >
        Manage webhooks
      </Link>
    </SectionCard>
  );
}
