/** The permission table's vocabulary: what each actor expects, and the shape of a row. */
import { ACTORS, type ActorName } from "../project-fixture";
import { type Fixture } from "./fixture";
import { expect } from "vitest";

// ---------------------------------------------------------------------------------------------
// Actors and expectations

export type SignedIn = Exclude<ActorName, "anonymous">;

/**
 * "allow": 2xx, or a redirect within the app (not to login) without an error toast. "deny": 401,
 * 403, 404 or a redirect to /auth/login. "refused": a form's answer to a viewer who may not do
 * this - back within the app with an error toast. A status (and Location prefix): exactly that
 * (public routes, wrong methods). Everything but "allow" must also change nothing.
 */
export type Expect = "allow" | "deny" | "refused" | { status: number; location?: string };
export type Expectations = Record<ActorName, Expect>;

export const allow = (who: readonly ActorName[], otherwise: Expect = "deny"): Expectations =>
  Object.fromEntries(ACTORS.map((a) => [a, who.includes(a) ? "allow" : otherwise])) as Expectations;
export const everyone = (e: Expect): Expectations =>
  Object.fromEntries(ACTORS.map((a) => [a, e])) as Expectations;
export const status = (code: number, location?: string): Expect => ({ status: code, location });

export const MEMBERS = allow(["editor", "developer", "admin", "owner"]);
export const SIGNED_IN = allow(ACTORS.filter((a) => a !== "anonymous"));
export const PLATFORM_ADMIN = allow(["platformAdmin"]);
/** Who sees a project: its owner and members, and platform admins (support access, decision 011). */
export const VIEWERS = allow(["editor", "developer", "admin", "owner", "platformAdmin"]);
/**
 * Who reads a ticket about A that A's owner opened: the owner, member admins and platform admins
 * (editors and developers read only their own tickets; decision 019 as amended).
 */
export const TICKET_READERS = allow(["admin", "owner", "platformAdmin"]);
/** Who manages members and the domain: owner, member admins and platform admins. */
export const MANAGERS = allow(["admin", "owner", "platformAdmin"]);
/** Who manages webhooks (`webhooks.manage`): the owner and member admins, not support. */
export const WEBHOOK_MANAGERS = allow(["admin", "owner"]);
/** A webhook command's answer: managers act; other viewers are refused with a toast. */
export const WEBHOOK_MANAGERS_FORM: Expectations = {
  ...WEBHOOK_MANAGERS,
  editor: "refused",
  developer: "refused",
  platformAdmin: "refused",
};
export const PUBLIC = everyone("allow");
export const NOT_ALLOWED = everyone(status(405));

// ---------------------------------------------------------------------------------------------
// The table

export type Req = {
  path: string;
  method?: string;
  form?: Record<string, string>;
  json?: unknown;
  headers?: Record<string, string>;
  params?: Record<string, string>;
};

export type Case = {
  name: string;
  fn: "loader" | "action";
  /** State this request needs, after the baseline (e.g. a failed deployment to retry). */
  setup?: (f: Fixture) => Promise<void>;
  request: (f: Fixture, actor: ActorName) => Req;
  expect: Expectations;
  /** A new session for this request (the request ends it). */
  freshSession?: true;
  /** Extra assertions on the response, e.g. that a list leaks no other project. */
  check?: (res: Response, actor: ActorName, f: Fixture) => Promise<void>;
};

export type Row = {
  file: string;
  /** Why the route is open to anyone (login, signup, public stand-ins, ...). */
  public?: string;
  cases: Case[];
};

export const emailOf = (f: Fixture, actor: ActorName) =>
  actor === "anonymous" ? "nobody@example.com" : f.users[actor].email;

export let unique = 0;
export const next = () => `${Date.now().toString(36)}-${(unique += 1)}`;

/** The dashboard's member forms: managers act, other members are refused, the rest denied. */
export const MANAGERS_FORM: Expectations = {
  ...MANAGERS,
  editor: "refused",
  developer: "refused",
};

/** Add-on switches: the owner, member admins and support; other members are refused. */
export const ADDON_FORM: Expectations = {
  ...allow(["admin", "owner", "platformAdmin"]),
  editor: "refused",
  developer: "refused",
};

/** An add-on route of the JSON API: 405 for GET, the owner, member admins and support for PUT. */
export const addonApiRow = (file: string, path: string, body: (f: Fixture) => unknown): Row => ({
  file,
  cases: [
    { name: "GET (405)", fn: "loader", request: () => ({ path }), expect: NOT_ALLOWED },
    {
      name: `PUT ${path} on A`,
      fn: "action",
      request: (f) => ({ path, method: "PUT", json: body(f) }),
      expect: MANAGERS,
    },
  ],
});

/** The dashboard: its viewers see it, and its invitee the invitation card instead. */
export const INVITED_OR_MEMBERS: Expectations = { ...VIEWERS, invited: "allow" };

/** The card's forms: the invitee answers; members and owner are refused; the rest get 404. */
export const INVITEE_FORM: Expectations = {
  ...allow(["invited"]),
  editor: "refused",
  developer: "refused",
  admin: "refused",
  owner: "refused",
  platformAdmin: "refused",
};

export const dashboardForm = (f: Fixture, form: Record<string, string>): Req => ({
  path: `/sites/${f.a.studioId}`,
  params: { studioId: f.a.studioId },
  form: { ...form, redirectTo: `/sites/${f.a.studioId}` },
});

export const sectionRow = (section: string): Row => ({
  file: `_app._project.sites.${section}.$studioId.tsx`,
  cases: [
    {
      name: `GET /sites/${section}/{A}`,
      fn: "loader",
      request: (f) => ({
        path: `/sites/${section}/${f.a.studioId}`,
        params: { studioId: f.a.studioId },
      }),
      expect: VIEWERS,
    },
  ],
});

/** A list answer names project A exactly for A's owner and members. */
export function listsProjectA(studioIds: (body: unknown) => string[]) {
  return async (res: Response, actor: ActorName, f: Fixture) => {
    if (res.status !== 200) return;
    const listed = studioIds(await res.clone().json()).includes(f.a.studioId);
    expect(listed, `${actor} sees project A in the list`).toBe(MEMBERS[actor] === "allow");
  };
}

/**
 * Cross-project checks: A's admin (and A's owner) send project B's ids to B's routes and APIs,
 * or B's rows through A's. Every one is denied and changes nothing.
 */
export type CrossCase = {
  name: string;
  file: string;
  fn: "loader" | "action";
  request: (f: Fixture) => Req;
  setup?: (f: Fixture) => Promise<void>;
  /** "deny" unless said otherwise. */
  expect?: Expect;
};
