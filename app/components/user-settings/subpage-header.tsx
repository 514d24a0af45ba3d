import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** The head of a page under User Settings: the way back, its title and what it is for. */
export function SubpageHeader({ title, children }: { title: string; children: ReactNode }) {
  return (
    <header className="space-y-1">
      <p className="text-sm">
        <Link to="/sites/user-settings" className="text-brand underline">
          User Settings
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="max-w-3xl text-slate-600 dark:text-slate-300">{children}</p>
    </header>
  );
}
