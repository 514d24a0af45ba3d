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

/** `more`: toasts shown beside the first (a check that ended and one that goes on). */
type FlashData = { toast: Toast; more: Toast[] };
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

type NewToast = Omit<Toast, "id">;

/** The flash of one toast, or of several shown together (the first is the answer). */
export async function toastHeader(toast: NewToast | [NewToast, ...NewToast[]]) {
  const [first, ...more] = Array.isArray(toast) ? toast : [toast];
  const session = await storage().getSession();
  session.flash("toast", { id: crypto.randomUUID(), ...first });
  if (more.length) {
    session.flash(
      "more",
      more.map((t) => ({ id: crypto.randomUUID(), ...t })),
    );
  }
  return storage().commitSession(session);
}

export async function redirectWithToast(
  url: string,
  toast: NewToast | [NewToast, ...NewToast[]],
  init?: ResponseInit,
) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

/** Reads (and clears) the pending toast: `toast` the first, `toasts` all of them. */
export async function readToast(request: Request) {
  const session = await storage().getSession(request.headers.get("Cookie"));
  const toast = (session.get("toast") as Toast | undefined) ?? null;
  const more = (session.get("more") as Toast[] | undefined) ?? [];
  const toasts = toast ? [toast, ...more] : [];
  return { toast, toasts, setCookie: toast ? await storage().destroySession(session) : null };
}
