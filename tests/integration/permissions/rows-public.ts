/** Rows of the permission table: public. */
import {
  LOCAL_AUTHORIZE,
  analyticsKeyOfA,
  contactFormA,
  held,
  pendingOwnerInvite,
} from "./fixture";
import {
  MEMBERS,
  NOT_ALLOWED,
  PUBLIC,
  type Row,
  SIGNED_IN,
  VIEWERS,
  allow,
  emailOf,
  everyone,
  listsProjectA,
  status,
} from "./table";
import { asUser } from "../project-fixture";
import { createLaunchToken } from "~/services/studio/studio.server";

export const ROWS_PUBLIC: Row[] = [
  {
    file: "healthz.ts",
    public: "liveness",
    cases: [{ name: "GET", fn: "loader", request: () => ({ path: "/healthz" }), expect: PUBLIC }],
  },
  {
    file: "forms.$formId.ts",
    public: "the public endpoint the hosted sites' forms post to (CORS limits it to their origins)",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: (f) => ({ path: `/forms/${f.a.studioId}`, params: { formId: f.a.studioId } }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST a submission to A's Contact form",
        fn: "action",
        setup: contactFormA,
        request: () => ({
          path: `/forms/${held.contactFormIdA}`,
          params: { formId: held.contactFormIdA },
          json: { name: "Visitor", message: "Hello" },
        }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "analytics.collect.ts",
    public: "hosted sites report page views here (only from their own origins)",
    cases: [
      {
        name: "POST a page view of A's site",
        fn: "action",
        setup: analyticsKeyOfA,
        request: () => ({
          path: "/analytics/collect",
          json: { k: held.analyticsKeyA, p: "/", r: "" },
        }),
        expect: everyone(status(204)),
      },
      {
        name: "POST a page view of A's site from another site's page (403)",
        fn: "action",
        setup: analyticsKeyOfA,
        request: () => ({
          path: "/analytics/collect",
          json: { k: held.analyticsKeyA, p: "/" },
          headers: { Origin: "https://elsewhere.example" },
        }),
        expect: everyone(status(403)),
      },
      {
        name: "GET the <noscript> pixel of A's site",
        fn: "loader",
        setup: analyticsKeyOfA,
        request: () => ({ path: `/analytics/collect?k=${held.analyticsKeyA}&p=/` }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "analytics[.]js.ts",
    public: "the page-view script hosted sites include",
    cases: [
      {
        name: "GET the script",
        fn: "loader",
        request: () => ({ path: "/analytics.js" }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "forms.$formId.thanks.tsx",
    public: "the thank-you page after a plain form post",
    cases: [
      {
        name: "GET the thanks of A's Contact form",
        fn: "loader",
        setup: contactFormA,
        request: () => ({
          path: `/forms/${held.contactFormIdA}/thanks`,
          params: { formId: held.contactFormIdA },
        }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "newsletter.logo.$studioId.ts",
    public: "newsletter logos, loaded by every subscriber's mail client",
    cases: [
      {
        name: "GET A's logo (none uploaded: 404)",
        fn: "loader",
        request: (f) => ({
          path: `/newsletter/logo/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
        }),
        expect: everyone(status(404)),
      },
    ],
  },
  {
    file: "resources.forms-export.$formId.ts",
    cases: [
      {
        name: "GET the CSV of A's Contact form",
        fn: "loader",
        setup: contactFormA,
        request: () => ({
          path: `/resources/forms-export/${held.contactFormIdA}`,
          params: { formId: held.contactFormIdA },
        }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "local.oauth.$provider.authorize.tsx",
    public: "the local Instagram and Stripe authorization pages, stand-ins for the vendors' own",
    cases: [
      {
        name: "GET Instagram's page",
        fn: "loader",
        request: () => ({ path: LOCAL_AUTHORIZE, params: { provider: "instagram" } }),
        expect: PUBLIC,
      },
      {
        name: "GET with another site's return address (no open redirect)",
        fn: "loader",
        request: () => ({
          path: LOCAL_AUTHORIZE.replace("localhost%3A3000", "evil.example"),
          params: { provider: "instagram" },
        }),
        expect: everyone(status(400)),
      },
      {
        name: "POST Authorize (back to the return page with a code)",
        fn: "action",
        request: () => ({
          path: LOCAL_AUTHORIZE,
          params: { provider: "instagram" },
          form: { decision: "authorize", userName: "perm.table" },
        }),
        expect: everyone(status(302, "/oauth/instagram/callback")),
      },
    ],
  },
  {
    file: "oauth.$provider.callback/route.tsx",
    cases: [
      {
        name: "GET with a state nobody started (refused, code untouched)",
        fn: "loader",
        request: (f) => ({
          path: `/oauth/instagram/callback?code=abc&state=${f.a.studioId}.${"F".repeat(32)}`,
          params: { provider: "instagram" },
        }),
        expect: SIGNED_IN,
      },
      {
        name: "POST Continue with a state nobody started",
        fn: "action",
        request: (f) => ({
          path: "/oauth/stripe/callback",
          params: { provider: "stripe" },
          form: { code: "abc", state: `${f.a.studioId}.${"F".repeat(32)}` },
        }),
        expect: { ...everyone("refused"), anonymous: "deny" },
      },
    ],
  },
  {
    file: "local.sites.$siteId.tsx",
    public: "the local hosting provider's published site (a public website)",
    cases: [
      {
        name: "GET A's site",
        fn: "loader",
        request: (f) => ({ path: `/local/sites/${f.a.siteId}`, params: { siteId: f.a.siteId } }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "local.studio.$projectId.tsx",
    public: "the local content studio stand-in; only the invited account accepts an invite",
    cases: [
      {
        name: "GET A's studio",
        fn: "loader",
        request: (f) => ({
          path: `/local/studio/${f.a.studioSanityId}`,
          params: { projectId: f.a.studioSanityId },
        }),
        expect: PUBLIC,
      },
      {
        name: "POST accept an unknown invite",
        fn: "action",
        request: (f) => ({
          path: `/local/studio/${f.a.studioSanityId}`,
          params: { projectId: f.a.studioSanityId },
          form: { inviteId: "not-an-invite" },
        }),
        expect: everyone(status(404)),
      },
      {
        name: "POST accept the owner's invite",
        fn: "action",
        setup: pendingOwnerInvite,
        request: (f) => ({
          path: `/local/studio/${f.a.studioSanityId}`,
          params: { projectId: f.a.studioSanityId },
          form: { inviteId: held.ownerInviteId },
        }),
        // The link is not enough: only the invited address accepts (a login redirect first).
        expect: { ...everyone(status(403)), anonymous: "deny", owner: "allow" },
      },
    ],
  },
  {
    file: "resources.passkeys.ts",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/resources/passkeys" }),
        expect: everyone(status(302, "/sites/user-settings")),
      },
      {
        name: "POST registration options for oneself (JSON)",
        fn: "action",
        request: () => ({
          path: "/resources/passkeys",
          json: { intent: "registration-options" },
        }),
        expect: SIGNED_IN,
      },
      {
        name: "POST rename a passkey that is nobody's",
        fn: "action",
        request: () => ({
          path: "/resources/passkeys",
          form: { intent: "passkey-rename", passkeyId: "bm9ib2R5cw", name: "Mine" },
        }),
        expect: { ...everyone("refused"), anonymous: "deny" },
      },
      {
        name: "POST delete a passkey that is nobody's",
        fn: "action",
        request: () => ({
          path: "/resources/passkeys",
          form: { intent: "passkey-delete", passkeyId: "bm9ib2R5cw" },
        }),
        expect: { ...everyone("refused"), anonymous: "deny" },
      },
    ],
  },
  {
    file: "resources.picker.ts",
    cases: [
      {
        name: "GET /resources/picker",
        fn: "loader",
        request: () => ({ path: "/resources/picker?q=permission" }),
        expect: SIGNED_IN,
        check: listsProjectA((b) =>
          (b as { projects: { studioId: string }[] }).projects.map((p) => p.studioId),
        ),
      },
    ],
  },
  {
    file: "resources.studio-invite.ts",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/resources/studio-invite" }),
        expect: everyone(status(302, "/")),
      },
      {
        name: "POST Resend Invitation (own e-mail) on A",
        fn: "action",
        request: (f, actor) => ({
          path: "/resources/studio-invite",
          form: {
            projectId: f.a.studioId,
            email: emailOf(f, actor),
            redirectTo: `/sites/${f.a.studioId}`,
          },
        }),
        // Support has no studio invitation of its own: the form says it could not resend.
        expect: { ...MEMBERS, platformAdmin: "refused" },
      },
    ],
  },
  {
    file: "resources.studio-launch.ts",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/resources/studio-launch" }),
        expect: everyone(status(302, "/")),
      },
      {
        name: "POST Take me to Studio (JSON)",
        fn: "action",
        request: (f) => ({
          path: "/resources/studio-launch",
          form: { studioId: f.a.studioId },
          headers: { Accept: "application/json" },
        }),
        expect: MEMBERS,
      },
      {
        name: "POST Dev Console (JSON)",
        fn: "action",
        request: (f) => ({
          path: "/resources/studio-launch",
          form: { studioId: f.a.studioId, target: "dev-console" },
          headers: { Accept: "application/json" },
        }),
        expect: allow(["developer", "admin", "owner", "platformAdmin"]),
      },
      {
        name: "POST Theme Preview (JSON)",
        fn: "action",
        request: (f) => ({
          path: "/resources/studio-launch",
          form: { studioId: f.a.studioId, target: "theme-preview" },
          headers: { Accept: "application/json" },
        }),
        expect: allow(["developer", "admin", "owner", "platformAdmin"]),
      },
    ],
  },
  {
    file: "resources.theme.tsx",
    public: "colour mode is a cookie of the browser",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/resources/theme" }),
        expect: everyone(status(302, "/")),
      },
      {
        name: "POST dark",
        fn: "action",
        request: () => ({ path: "/resources/theme", form: { theme: "dark" } }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "studios.autologin.$studioId.tsx",
    cases: [
      {
        name: "GET with the actor's own launch token for A",
        fn: "loader",
        request: (f, actor) => {
          const token = actor === "anonymous" ? "" : createLaunchToken(asUser(f.users[actor]), f.a);
          return {
            path: `/studios/autologin/${f.a.studioId}?token=${token}`,
            params: { studioId: f.a.studioId },
          };
        },
        // The token names the user; without one the link is invalid (400).
        expect: { ...MEMBERS, anonymous: status(400) },
      },
      {
        name: "POST Take me to Studio from the splash",
        fn: "action",
        request: (f) => ({
          path: `/studios/autologin/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { hideSplash: "on" },
        }),
        expect: MEMBERS,
      },
    ],
  },
];
