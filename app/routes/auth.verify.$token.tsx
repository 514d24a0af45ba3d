import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth-card";
import { confirmEmail } from "~/services/accounts.server";
import { DomainError } from "~/services/errors";
import { createUserSession } from "~/utils/session.server";
import { toastHeader } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Confirm your email | StackShift" }];

/**
 * The confirmation link of a signup: opening it creates the account and signs the person in
 * (docs/configuration.md, "Accounts"). It works once, within 24 hours.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const { user, redirectTo } = await confirmEmail(params.token ?? "");
    const response = await createUserSession(request, user, redirectTo);
    response.headers.append(
      "Set-Cookie",
      await toastHeader({
        type: "success",
        title: "Your email is confirmed",
        description: "Welcome to StackShift.",
      }),
    );
    return response;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return data({ message: error.message }, { status: 400 });
  }
}

export default function ConfirmEmail() {
  const { message } = useLoaderData<typeof loader>();
  return (
    <AuthCard title="This confirmation link cannot be used">
      <p role="alert" className="text-sm text-slate-700 dark:text-slate-300">
        {message}
      </p>
      <p className="mt-6 flex justify-between text-sm">
        <Link to="/auth/login" className="text-brand underline">
          Log in
        </Link>
        <Link to="/signup" className="text-brand underline">
          Sign up
        </Link>
      </p>
    </AuthCard>
  );
}
