import { Form, Link } from "@remix-run/react";
import type { User } from "~/services/accounts.server";

/** Placeholder top bar; the full spec "Top bar" is built in the shell components. */
export function TopBar({ user }: { user: User }) {
  return (
    <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto flex max-w-7xl items-center gap-4 px-4 py-3">
        <Link to="/sites" className="text-lg font-bold text-brand">
          StackShift
        </Link>
        <span className="ml-auto text-sm">{user.name}</span>
        <Form method="post" action="/auth/logout">
          <button type="submit" className="text-sm underline">
            Logout
          </button>
        </Form>
      </div>
    </header>
  );
}
