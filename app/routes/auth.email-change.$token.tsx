import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { DomainError } from "~/services/errors";
import { USER_SETTINGS_MESSAGES } from "~/services/user-settings.schema";
import { confirmEmailChange } from "~/services/user-settings.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Confirm your new e-mail | StackShift" }];

/**
 * The link mailed to a new e-mail address: opening it makes it the account's address (once,
 * within 24 hours), signed in or not; then to the settings (or the login page, which sends
 * there once signed in).
 */
export async function loader({ params }: LoaderFunctionArgs) {
  try {
    const { email } = await confirmEmailChange(params.token ?? "");
    return await redirectWithToast("/sites/user-settings", {
      type: "success",
      title: USER_SETTINGS_MESSAGES.emailChanged,
      description: `Your StackShift e-mail address is now ${email}.`,
    });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return data({ message: error.message }, { status: 400 });
  }
}

export default function ConfirmEmailChange() {
  const { message } = useLoaderData<typeof loader>();
  return (
    <AuthCard title="This confirmation link cannot be used">
      <p role="alert" className="text-sm text-slate-700 dark:text-slate-300">
        {message}
      </p>
      <p className="mt-6 text-sm">
        <Link to="/sites/user-settings" className="text-brand underline">
          Your settings
        </Link>
      </p>
    </AuthCard>
  );
}
