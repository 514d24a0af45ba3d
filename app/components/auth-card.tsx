import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** The centred card of the signed-out pages (login, signup, forgot, request access). */
export function AuthCard({
  title,
  children,
  wide = false,
}: {
  title: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center p-4">
      <Link to="/" className="mb-6 text-2xl font-bold text-brand">
        StackShift
      </Link>
      <div
        className={`w-full ${wide ? "max-w-2xl" : "max-w-md"} rounded-lg bg-white p-8 shadow dark:bg-slate-900`}
      >
        <h1 className="mb-6 text-xl font-semibold">{title}</h1>
        {children}
      </div>
    </main>
  );
}

/**
 * A mailed link that no longer works (spent, expired, unknown): what happened, and where to go
 * instead. Shown by the pages the links open; nothing changes on opening them.
 */
export function UnusableLink({
  title,
  message,
  links,
}: {
  title: string;
  message: string;
  links: { to: string; label: string }[];
}) {
  return (
    <AuthCard title={title}>
      <p role="alert" className="text-sm text-slate-700 dark:text-slate-300">
        {message}
      </p>
      <p className="mt-6 flex justify-between text-sm">
        {links.map((link) => (
          <Link key={link.to} to={link.to} className="text-brand underline">
            {link.label}
          </Link>
        ))}
      </p>
    </AuthCard>
  );
}
