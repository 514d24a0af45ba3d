import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { env } from "./env.server";

/** A message shown once after a redirect: how actions say "done" with or without JavaScript. */
export type Toast = {
  id: string;
  type: "success" | "error" | "info";
  title: string;
  description?: string;
  /** Milliseconds: 7000 for launch messages, otherwise 3 to 5 s. */
  duration?: number;
};

type FlashData = { toast: Toast };
let cached:
  ReturnType<typeof createCookieSessionStorage<Record<string, never>, FlashData>> | undefined;
function storage() {
  cached ??= createCookieSessionStorage<Record<string, never>, FlashData>({
    cookie: {
      name: "stackshift_toast",
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env().secureCookies,
      secrets: [env().SESSION_SECRET],
    },
  });
  return cached;
}

export async function toastHeader(toast: Omit<Toast, "id">) {
  const session = await storage().getSession();
  session.flash("toast", { id: crypto.randomUUID(), ...toast });
  return storage().commitSession(session);
}

export async function redirectWithToast(
  url: string,
  toast: Omit<Toast, "id">,
  init?: ResponseInit,
) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

/** Reads (and clears) the pending toast. */
export async function readToast(request: Request) {
  const session = await storage().getSession(request.headers.get("Cookie"));
  const toast = (session.get("toast") as Toast | undefined) ?? null;
  return { toast, setCookie: toast ? await storage().destroySession(session) : null };
}
