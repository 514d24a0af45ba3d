import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useFetcher } from "@remix-run/react";
import { useMemo, useState } from "react";
import { useFormReply, type FormReply } from "~/web/form-reply";
import { useHydrated } from "~/utils/page-load";
import { Button } from "~/components/ui/button";
import { FieldError } from "~/components/ui/field";
import {
  DEFAULT_MEMBER_ROLE,
  DUPLICATE_MEMBER_MESSAGE,
  inviteFormSchema,
  inviteMemberSchema,
  isTakenEmail,
  MEMBER_ROLES,
  ROLE_LABEL,
} from "~/services/members";
import { usePageWithoutConfirm, useSettled } from "./member-form-hooks";

/**
 * Email (required, valid) and Role (editor default). An address already invited or a member
 * shows `DUPLICATE_MEMBER_MESSAGE` and disables 'Send Invitation' as it is typed (with
 * JavaScript); the action checks again against the database either way.
 */
export function InviteMemberForm({
  studioId,
  takenEmails,
  initial,
}: {
  studioId: string;
  takenEmails: string[];
  /** What was typed before "Confirm it's you" (inviting an admin), typed again. */
  initial?: { email?: string; role?: string };
}) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<FormReply>();
  const actionReply = useFormReply("member-invite");
  // The same object while the reply is the same: `stale` compares by identity.
  const actionData = useMemo(
    () => (actionReply ? { result: actionReply } : undefined),
    [actionReply],
  );
  const back = usePageWithoutConfirm();
  // After a successful invite the fetcher keeps its previous answer; `stale` hides it.
  const [stale, setStale] = useState<unknown>(null);
  const answer = fetcher.data ?? actionData ?? null;
  const lastResult = answer && answer !== stale && "result" in answer ? answer.result : undefined;
  // Bumped after a successful invite: remounts the form empty.
  const [generation, setGeneration] = useState(0);
  const initialEmail = lastResult?.initialValue?.email ?? initial?.email;
  const [typed, setTyped] = useState(typeof initialEmail === "string" ? initialEmail : "");

  useSettled(fetcher, (refused) => {
    if (refused) return;
    setStale(fetcher.data ?? actionData ?? null);
    setTyped("");
    setGeneration((g) => g + 1);
  });

  const [form, fields] = useForm({
    id: `invite-member-${generation}`,
    lastResult,
    defaultValue: { email: initial?.email, role: initial?.role ?? DEFAULT_MEMBER_ROLE },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    // The schema without the page's duplicate check, which no HTML attribute can express.
    constraint: getZodConstraint(inviteMemberSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: inviteFormSchema(takenEmails) }),
  });
  // Busy state adding_member.
  const busy = fetcher.state !== "idle";
  const duplicate = hydrated && isTakenEmail(typed, takenEmails);
  const emailErrors = duplicate ? [DUPLICATE_MEMBER_MESSAGE] : fields.email.errors;
  const { key: emailKey, ...emailProps } = getInputProps(fields.email, { type: "email" });
  const { key: roleKey, ...roleProps } = getSelectProps(fields.role);

  return (
    <fetcher.Form
      method="post"
      action={`/sites/${studioId}`}
      className="grid gap-3 sm:grid-cols-[1fr_max-content_max-content] sm:items-start"
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value="member-invite" />
      <input type="hidden" name="redirectTo" value={back} />
      {/* The server takes the project from the URL, but the shared schema checks it in the browser too. */}
      <input type="hidden" name="studioId" value={studioId} />
      <div>
        <label htmlFor={fields.email.id} className="block text-sm font-medium">
          Email
        </label>
        <input
          key={emailKey}
          {...emailProps}
          autoComplete="off"
          placeholder="name@example.com"
          aria-invalid={emailErrors?.length ? true : undefined}
          aria-describedby={emailErrors?.length ? fields.email.errorId : undefined}
          onInput={(event) => setTyped(event.currentTarget.value)}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand focus:outline-none focus:ring-1 focus:ring-brand aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-900"
        />
        <FieldError id={fields.email.errorId} errors={emailErrors} />
      </div>
      <div>
        <label htmlFor={fields.role.id} className="block text-sm font-medium">
          Role
        </label>
        <select
          key={roleKey}
          {...roleProps}
          className="mt-1 block rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
        >
          {MEMBER_ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABEL[r]}
            </option>
          ))}
        </select>
        <FieldError id={fields.role.errorId} errors={fields.role.errors} />
      </div>
      <Button type="submit" className="sm:mt-6" disabled={busy || duplicate}>
        {busy ? "Sending Invitation..." : "Send Invitation"}
      </Button>
    </fetcher.Form>
  );
}
