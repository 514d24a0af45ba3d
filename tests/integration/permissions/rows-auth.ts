/** Rows of the permission table: auth. */
import { PUBLIC, SIGNED_IN, type Row, everyone, next, status } from "./table";

export const ROWS_AUTH: Row[] = [
  {
    file: "auth.email-change.$token.tsx",
    public: "the confirmation link mailed to a new e-mail address (the token is the proof)",
    cases: [
      {
        name: "GET with a token that was never issued",
        fn: "loader",
        request: () => ({
          path: "/auth/email-change/not-a-token",
          params: { token: "not-a-token" },
        }),
        expect: everyone(status(400)),
      },
      {
        name: "POST confirm with a token that was never issued",
        fn: "action",
        request: () => ({
          path: "/auth/email-change/not-a-token",
          params: { token: "not-a-token" },
          form: {},
        }),
        // Only a browser signed in to the account that asked may confirm.
        expect: { ...everyone(status(400)), anonymous: status(403) },
      },
    ],
  },
  {
    file: "notifications.unsubscribe.$token.tsx",
    public:
      "the unsubscribe link of notification mails (the token is the proof); it only shows, and its POST is also RFC 8058's one-click",
    cases: [
      {
        name: "GET with a token that was never issued",
        fn: "loader",
        request: () => ({
          path: "/notifications/unsubscribe/not-a-token",
          params: { token: "not-a-token" },
        }),
        expect: everyone(status(400)),
      },
      {
        name: "POST one-click with a token that was never issued",
        fn: "action",
        request: () => ({
          path: "/notifications/unsubscribe/not-a-token",
          params: { token: "not-a-token" },
          form: { "List-Unsubscribe": "One-Click" },
        }),
        expect: everyone(status(400)),
      },
      {
        name: "POST the page's button from no origin",
        fn: "action",
        request: () => ({
          path: "/notifications/unsubscribe/not-a-token",
          params: { token: "not-a-token" },
          form: {},
        }),
        expect: everyone(status(403)),
      },
    ],
  },
  {
    file: "form-notifications.$token.tsx",
    public:
      "the link mailed to a new notification address of a form (the token is the proof); it only shows",
    cases: [
      {
        name: "GET with a token that was never issued",
        fn: "loader",
        request: () => ({
          path: "/form-notifications/not-a-token",
          params: { token: "not-a-token" },
        }),
        expect: everyone(status(400)),
      },
      {
        name: "POST confirm with a token that was never issued",
        fn: "action",
        request: () => ({
          path: "/form-notifications/not-a-token",
          params: { token: "not-a-token" },
          form: {},
        }),
        expect: everyone(status(400)),
      },
    ],
  },
  {
    file: "auth.email-revert.$token.tsx",
    public:
      "the revert link mailed to the old address after an e-mail change (the token is the proof)",
    cases: [
      {
        name: "GET with a token that was never issued",
        fn: "loader",
        request: () => ({
          path: "/auth/email-revert/not-a-token",
          params: { token: "not-a-token" },
        }),
        expect: everyone(status(400)),
      },
      {
        name: "POST restore with a token that was never issued",
        fn: "action",
        request: () => ({
          path: "/auth/email-revert/not-a-token",
          params: { token: "not-a-token" },
          form: {},
        }),
        expect: everyone(status(400)),
      },
    ],
  },
  {
    file: "auth.forgot.tsx",
    public: "asking for a password reset needs no session",
    cases: [
      { name: "GET", fn: "loader", request: () => ({ path: "/auth/forgot" }), expect: PUBLIC },
      {
        name: "POST",
        fn: "action",
        request: () => ({ path: "/auth/forgot", form: { email: `forgot-${next()}@example.com` } }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "auth.login.tsx",
    public: "the login page",
    cases: [
      { name: "GET", fn: "loader", request: () => ({ path: "/auth/login" }), expect: PUBLIC },
      {
        name: "POST wrong password",
        fn: "action",
        request: (f) => ({
          path: "/auth/login",
          form: { email: f.users.outsider.email, password: "not the password" },
        }),
        expect: everyone(status(401)),
      },
    ],
  },
  {
    file: "auth.passkey.ts",
    public:
      "signing in with a passkey starts without a session; the second step and a proof check their own",
    cases: [
      {
        name: "POST sign-in options (no account named)",
        fn: "action",
        request: () => ({ path: "/auth/passkey", json: { purpose: "sign-in", step: "options" } }),
        expect: PUBLIC,
      },
      {
        name: "POST sign-in verify without a challenge",
        fn: "action",
        request: () => ({
          path: "/auth/passkey",
          json: { purpose: "sign-in", step: "verify", response: {} },
        }),
        expect: everyone(status(400)),
      },
      {
        name: "POST second-factor options without a pending sign-in",
        fn: "action",
        request: () => ({
          path: "/auth/passkey",
          json: { purpose: "second-factor", step: "options" },
        }),
        expect: everyone(status(401)),
      },
      {
        name: "POST proof options (the fixture's accounts have no passkey)",
        fn: "action",
        request: () => ({ path: "/auth/passkey", json: { purpose: "proof", step: "options" } }),
        expect: { ...everyone(status(404)), anonymous: status(401) },
      },
    ],
  },
  {
    file: "auth.confirm.tsx",
    cases: [
      {
        name: "GET the proof page",
        fn: "loader",
        request: () => ({ path: "/auth/confirm?returnTo=%2Fsites" }),
        expect: SIGNED_IN,
      },
      {
        name: "POST an empty password (said beside the field)",
        fn: "action",
        request: () => ({ path: "/auth/confirm", form: { intent: "confirm-password" } }),
        expect: { ...everyone(status(400)), anonymous: "deny" },
      },
    ],
  },
  {
    file: "auth.logout.tsx",
    public: "logging out ends whatever session there is",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/auth/logout" }),
        expect: everyone(status(302, "/")),
      },
      {
        name: "POST",
        fn: "action",
        request: () => ({ path: "/auth/logout", form: {} }),
        freshSession: true,
        expect: everyone(status(302, "/auth/login")),
      },
    ],
  },
  {
    file: "auth.oidc.callback.tsx",
    public: "the identity provider's return (single sign-on is off in tests: back to login)",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/auth/oidc/callback?code=x&state=y" }),
        expect: everyone(status(302, "/auth/login")),
      },
    ],
  },
  {
    file: "auth.oidc.tsx",
    public: "starting single sign-on (off in tests: back to login)",
    cases: [
      { name: "GET", fn: "loader", request: () => ({ path: "/auth/oidc" }), expect: PUBLIC },
      {
        name: "POST",
        fn: "action",
        request: () => ({ path: "/auth/oidc", form: {} }),
        expect: everyone(status(302, "/auth/login")),
      },
    ],
  },
  {
    file: "auth.reset.$token.tsx",
    public: "the password reset link; the token is the credential",
    cases: [
      {
        name: "GET with an unknown token",
        fn: "loader",
        request: () => ({ path: "/auth/reset/nope", params: { token: "nope" } }),
        expect: everyone(status(400)),
      },
      {
        name: "POST with an unknown token",
        fn: "action",
        request: () => ({
          path: "/auth/reset/nope",
          params: { token: "nope" },
          form: { password: "a new password 123", confirmPassword: "a new password 123" },
        }),
        expect: everyone(status(400)),
      },
    ],
  },
  {
    file: "auth.two-factor.tsx",
    public: "the second step of a sign-in; the password step's waiting session is the credential",
    cases: [
      {
        name: "GET without a password step waiting",
        fn: "loader",
        request: () => ({ path: "/auth/two-factor" }),
        expect: everyone(status(302, "/auth/login")),
      },
      {
        name: "POST a code without a password step waiting",
        fn: "action",
        request: () => ({ path: "/auth/two-factor", form: { code: "123456" } }),
        expect: everyone(status(302, "/auth/login")),
      },
    ],
  },
  {
    file: "auth.sign-in.$token.tsx",
    public:
      "the link mailed to finish a sign-in past the account's ceiling of failed passwords (the token is the proof)",
    cases: [
      {
        name: "GET with a token that was never issued",
        fn: "loader",
        request: () => ({ path: "/auth/sign-in/not-a-token", params: { token: "not-a-token" } }),
        expect: everyone(status(400)),
      },
      {
        name: "POST sign in with a token that was never issued",
        fn: "action",
        request: () => ({
          path: "/auth/sign-in/not-a-token",
          params: { token: "not-a-token" },
          form: {},
        }),
        expect: everyone(status(400)),
      },
    ],
  },
  {
    file: "auth.verify._index.tsx",
    public: "'Confirm your email' after signup, with Resend (same answer for any address)",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/auth/verify?email=someone%40example.com" }),
        expect: PUBLIC,
      },
      {
        name: "POST Resend",
        fn: "action",
        request: () => ({ path: "/auth/verify", form: { email: `resend-${next()}@example.com` } }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "auth.verify.$token.tsx",
    public: "the confirmation link of a signup; the token is the credential",
    cases: [
      {
        name: "GET with an unknown token",
        fn: "loader",
        request: () => ({ path: "/auth/verify/nope", params: { token: "nope" } }),
        expect: everyone(status(400)),
      },
      {
        name: "POST confirm with an unknown token",
        fn: "action",
        request: () => ({
          path: "/auth/verify/nope",
          params: { token: "nope" },
          form: { password: "a long enough password" },
        }),
        expect: everyone(status(400)),
      },
    ],
  },
  {
    file: "invitations.$invitationKey.tsx",
    public: "the invitation card: the key in the e-mailed link is the credential",
    cases: [
      {
        name: "GET the card of A's invitation",
        fn: "loader",
        request: (f) => ({
          path: `/invitations/${f.invitationKeyA}`,
          params: { invitationKey: f.invitationKeyA },
        }),
        expect: PUBLIC,
      },
      {
        name: "POST Accept Invitation",
        fn: "action",
        request: (f) => ({
          path: `/invitations/${f.invitationKeyA}`,
          params: { invitationKey: f.invitationKeyA },
          form: { intent: "accept" },
        }),
        // Others are sent back to the card with an error toast; nothing changes.
        expect: { ...everyone("refused"), anonymous: "deny", invited: "allow" },
      },
      {
        name: "POST Ignore",
        fn: "action",
        request: (f) => ({
          path: `/invitations/${f.invitationKeyA}`,
          params: { invitationKey: f.invitationKeyA },
          form: { intent: "decline" },
        }),
        expect: { ...everyone("refused"), anonymous: status(302, "/"), invited: "allow" },
      },
    ],
  },
  {
    file: "request-access.tsx",
    public: "prospective customers ask for access here",
    cases: [
      { name: "GET", fn: "loader", request: () => ({ path: "/request-access" }), expect: PUBLIC },
      {
        name: "POST review",
        fn: "action",
        request: () => ({
          path: "/request-access",
          form: {
            intent: "review",
            fullName: "Rae Viewer",
            businessEmail: `rae-${next()}@example.com`,
          },
        }),
        expect: PUBLIC,
      },
    ],
  },
  {
    file: "signup.tsx",
    public: "the signup page",
    cases: [
      { name: "GET", fn: "loader", request: () => ({ path: "/signup" }), expect: PUBLIC },
      {
        name: "POST without fields",
        fn: "action",
        request: () => ({ path: "/signup", form: {} }),
        expect: everyone(status(400)),
      },
    ],
  },
];
