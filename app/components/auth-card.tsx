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
