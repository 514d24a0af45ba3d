import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useHydrated } from "~/utils/page-load";
import { Button } from "~/components/ui/button";
import { FieldError } from "~/components/ui/field";
import { constraintOf } from "~/components/ui/use-intent-form";
import { DEFAULT_MEMBER_ROLE, MEMBER_ROLES, ROLE_LABEL } from "~/services/members";
import { roleFormSchema } from "~/services/members";
import type { DisplayedMember } from "~/services/members/index.server";
import type { FormReply } from "~/web/form-reply";
import { usePageWithoutConfirm } from "./member-form-hooks";

/** A member row's role select and Save (members-section.tsx), a conform form of its own. */
export function RoleForm({
  studioId,
  member,
  initialRole,
}: {
  studioId: string;
  member: DisplayedMember;
  /** The role chosen before "Confirm it's you" (making someone an admin), chosen again. */
  initialRole?: string;
}) {
  const fetcher = useFetcher<FormReply>();
  const back = usePageWithoutConfirm();
  const hydrated = useHydrated();
  const current = member.role === "owner" ? DEFAULT_MEMBER_ROLE : member.role;
  const [role, setRole] = useState<string>(initialRole ?? current);
  useEffect(() => setRole(current), [current]);
  const busy = fetcher.state !== "idle";
  // One form per row, so the id is the member's and the reply is this row's fetcher's: the
  // page's action data answers whichever form posted without JavaScript.
  const answer = fetcher.data && "result" in fetcher.data ? fetcher.data.result : undefined;
  const [form] = useForm({
    id: `member-role-${member.id}`,
    lastResult: answer,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    constraint: constraintOf(roleFormSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: roleFormSchema }),
  });
  // The select's attributes are written here rather than read from conform's field metadata:
  // that costs about 0.07 ms a field to render, and the dashboard renders one per member (50).
  // It is controlled (Save waits for a change), and required, as the schema's constraint says.
  const selectId = `${form.id}-role`;
  const errorId = `${selectId}-error`;
  const errors = answer?.error?.role ?? undefined;
  return (
    <fetcher.Form
      method="post"
      action={`/sites/${studioId}`}
      className="flex items-center gap-2"
      {...getFormProps(form)}
    >
      <input type="hidden" name="intent" value="member-role" />
      <input type="hidden" name="memberId" value={member.id} />
      <input type="hidden" name="redirectTo" value={back} />
      <label htmlFor={selectId} className="sr-only">
        Role of {member.email}
      </label>
      <select
        id={selectId}
        name="role"
        required={constraintOf(roleFormSchema).role?.required}
        aria-invalid={errors ? true : undefined}
        aria-describedby={errors ? errorId : undefined}
        value={role}
        onChange={(event) => setRole(event.target.value)}
        disabled={busy}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
      >
        {MEMBER_ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABEL[r]}
          </option>
        ))}
      </select>
      <Button
        type="submit"
        variant="ghost"
        className="px-2 py-1"
        disabled={busy || (hydrated && role === current)}
        aria-label={`Save the role of ${member.email}`}
      >
        {busy ? "Saving..." : "Save"}
      </Button>
      <FieldError id={errorId} errors={errors} />
    </fetcher.Form>
  );
}
