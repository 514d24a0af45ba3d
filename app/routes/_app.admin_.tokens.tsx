import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { Button, ButtonLink } from "~/components/ui/button";
import { Field, FormError } from "~/components/ui/field";
import { leakedTokenSchema } from "~/services/accounts";
import { revokeLeakedToken } from "~/services/accounts/index.server";
import { ServiceError, InvalidError } from "~/services/core";
import { formReply, readForm } from "~/web/http.server";
import { requirePlatformAdmin } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Revoke a leaked API token | StackShift" }];

/**
 * /admin/tokens (platform admins): revoke any personal access token found where it should not be,
 * by pasting it (what a secret scanner reports); its owner is mailed. Decision 029.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePlatformAdmin(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requirePlatformAdmin(request);
  const submission = parseWithZod(await readForm(request, 4 * 1024), { schema: leakedTokenSchema });
  if (submission.status !== "success") {
    return formReply({ result: submission.reply({ hideFields: ["token"] }) }, 400);
  }
  try {
    const { name, ownerEmail } = await revokeLeakedToken(admin, submission.value.token);
    return redirectWithToast("/admin/tokens", {
      type: "success",
      title: "Token revoked",
      description: `${name} of ${ownerEmail} is refused from now on; we emailed its owner.`,
    });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return formReply(
      {
        result: submission.reply({
          hideFields: ["token"],
          ...(error instanceof InvalidError
            ? { fieldErrors: error.fieldErrors }
            : { formErrors: [error.message] }),
        }),
      },
      error,
    );
  }
}

export default function RevokeLeakedToken() {
  const actionData = useActionData<typeof action>();
  const busy = useIsPending({ state: "submitting" });
  const [form, fields] = useForm({
    id: "admin-token",
    lastResult: actionData?.result,
    constraint: getZodConstraint(leakedTokenSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: leakedTokenSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="max-w-2xl space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Revoke a leaked API token</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            Paste a StackShift personal access token (it starts with stackshift_pat_) found in a
            public repository, a log or a report. It is refused from its next call, and its owner is
            emailed.
          </p>
        </div>
        <ButtonLink to="/admin" variant="secondary">
          Go Back
        </ButtonLink>
      </div>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormError message={form.errors?.[0]} />
        <Field
          label="Token"
          autoComplete="off"
          spellCheck={false}
          field={fields.token}
          type="password"
        />
        <Button type="submit" variant="danger" disabled={busy}>
          {busy ? "Revoking..." : "Revoke token"}
        </Button>
      </Form>
    </div>
  );
}
