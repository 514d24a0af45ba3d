/** Rows of the permission table: api. */
import {
  MANAGERS,
  MEMBERS,
  NOT_ALLOWED,
  PLATFORM_ADMIN,
  PUBLIC,
  type Row,
  SIGNED_IN,
  VIEWERS,
  WEBHOOK_MANAGERS,
  addonApiRow,
  allow,
  emailOf,
  everyone,
  listsProjectA,
  next,
  status,
} from "./table";
import {
  PAYMENT_ACCOUNT_A,
  SOCIAL_ACCOUNT_A,
  contactFormA,
  failA,
  held,
  publishedDeployA,
  paymentAccountA,
  savedTemplateA,
  senderSettingsA,
  socialAccountA,
  webhookA,
} from "./fixture";

export const ROWS_API: Row[] = [
  {
    file: "api.app.$id.ts",
    cases: [
      {
        name: "POST (405)",
        fn: "action",
        request: (f) => ({ path: `/api/app/${f.a.id}` }),
        expect: NOT_ALLOWED,
      },
      {
        name: "GET /api/app/{A._id}",
        fn: "loader",
        request: (f) => ({ path: `/api/app/${f.a.id}`, params: { id: f.a.id } }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "api.app._index.ts",
    cases: [
      {
        name: "POST (405)",
        fn: "action",
        request: () => ({ path: "/api/app" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "GET /api/app",
        fn: "loader",
        request: () => ({ path: "/api/app" }),
        expect: SIGNED_IN,
        check: listsProjectA((b) =>
          (b as { data: { studioId: string }[] }).data.map((p) => p.studioId),
        ),
      },
    ],
  },
  {
    file: "api.app.create.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/create" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST a business project",
        fn: "action",
        request: () => ({
          path: "/api/app/create",
          json: { name: `Api ${next()}`, idempotencyKey: `k-${next()}` },
        }),
        expect: SIGNED_IN,
      },
      {
        name: "POST an enterprise project (choosing the site type)",
        fn: "action",
        request: () => ({
          path: "/api/app/create",
          json: {
            name: `Api ent ${next()}`,
            siteType: "enterprise",
            idempotencyKey: `k-${next()}`,
          },
        }),
        expect: PLATFORM_ADMIN,
      },
    ],
  },
  {
    file: "api.app.deployments.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/deployments" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST deploy A",
        fn: "action",
        request: (f) => ({ path: "/api/app/deployments", json: { id: f.a.id } }),
        expect: MEMBERS,
      },
    ],
  },
  {
    file: "api.app.rollback.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/rollback" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST roll A back to its published deployment",
        fn: "action",
        setup: publishedDeployA,
        request: (f) => ({
          path: "/api/app/rollback",
          json: { studioId: f.a.studioId, deployId: held.publishedDeployA },
        }),
        // As the Website page's Roll back: the customer's developers, admins and owner, not support.
        expect: allow(["developer", "admin", "owner"]),
      },
    ],
  },
  addonApiRow("api.app.activate-cstudio.ts", "/api/app/activate-cstudio", (f) => ({
    studioId: f.a.studioId,
    value: "true",
  })),
  addonApiRow("api.app.gpt3.ts", "/api/app/gpt3", (f) => ({
    studioId: f.a.studioId,
    value: "true",
  })),
  {
    file: "api.app.newsletter.ts",
    cases: [
      {
        name: "GET A's newsletter settings with savedTemplates",
        fn: "loader",
        request: (f) => ({ path: `/api/app/newsletter?studioId=${f.a.studioId}` }),
        expect: VIEWERS,
      },
      ...addonApiRow("api.app.newsletter.ts", "/api/app/newsletter", (f) => ({
        studioId: f.a.studioId,
        action: "enable",
      })).cases.filter((c) => c.fn === "action"),
    ],
  },
  {
    file: "api.app.newsletter.templates.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/newsletter/templates" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST save a template to A",
        fn: "action",
        setup: savedTemplateA,
        request: (f) => ({
          path: "/api/app/newsletter/templates",
          json: { studioId: f.a.studioId, name: `T ${next()}`, body: "<p>Hi</p>" },
        }),
        expect: MANAGERS,
      },
    ],
  },
  {
    file: "api.app.newsletter.templates.$templateId.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        setup: savedTemplateA,
        request: () => ({
          path: `/api/app/newsletter/templates/${held.templateIdA}`,
          params: { templateId: held.templateIdA },
        }),
        expect: NOT_ALLOWED,
      },
      {
        name: "PATCH rename A's template",
        fn: "action",
        setup: savedTemplateA,
        request: () => ({
          path: `/api/app/newsletter/templates/${held.templateIdA}`,
          method: "PATCH",
          params: { templateId: held.templateIdA },
          json: { name: `Renamed ${next()}` },
        }),
        expect: MANAGERS,
      },
      {
        name: "DELETE A's template",
        fn: "action",
        setup: savedTemplateA,
        request: () => ({
          path: `/api/app/newsletter/templates/${held.templateIdA}`,
          method: "DELETE",
          params: { templateId: held.templateIdA },
        }),
        expect: MANAGERS,
      },
    ],
  },
  {
    file: "api.app.webhooks.ts",
    cases: [
      {
        name: "GET A's webhooks",
        fn: "loader",
        setup: webhookA,
        request: (f) => ({ path: `/api/app/webhooks?studioId=${f.a.studioId}` }),
        expect: WEBHOOK_MANAGERS,
      },
      {
        name: "POST add a webhook to A",
        fn: "action",
        setup: webhookA,
        request: (f) => ({
          path: "/api/app/webhooks",
          json: {
            studioId: f.a.studioId,
            url: "https://93.184.215.14/api-hook",
            events: ["member.joined"],
          },
        }),
        expect: WEBHOOK_MANAGERS,
      },
    ],
  },
  {
    file: "api.app.webhooks.$id.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        setup: webhookA,
        request: () => ({
          path: `/api/app/webhooks/${held.webhookIdA}`,
          params: { id: held.webhookIdA },
        }),
        expect: NOT_ALLOWED,
      },
      {
        name: "DELETE A's webhook",
        fn: "action",
        setup: webhookA,
        request: () => ({
          path: `/api/app/webhooks/${held.webhookIdA}`,
          method: "DELETE",
          params: { id: held.webhookIdA },
        }),
        expect: WEBHOOK_MANAGERS,
      },
    ],
  },
  {
    file: "api.app.webhooks.$id.deliveries.ts",
    cases: [
      {
        name: "GET A's webhook's deliveries",
        fn: "loader",
        setup: webhookA,
        request: () => ({
          path: `/api/app/webhooks/${held.webhookIdA}/deliveries`,
          params: { id: held.webhookIdA },
        }),
        expect: WEBHOOK_MANAGERS,
      },
      {
        name: "POST (405)",
        fn: "action",
        setup: webhookA,
        request: () => ({
          path: `/api/app/webhooks/${held.webhookIdA}/deliveries`,
          method: "POST",
          params: { id: held.webhookIdA },
        }),
        expect: NOT_ALLOWED,
      },
    ],
  },
  {
    file: "api.app.webhooks.$id.deliveries.$deliveryId.redeliver.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        setup: webhookA,
        request: () => ({
          path: `/api/app/webhooks/${held.webhookIdA}/deliveries/${held.deliveryIdA}/redeliver`,
          params: { id: held.webhookIdA, deliveryId: held.deliveryIdA },
        }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST redeliver A's delivery",
        fn: "action",
        setup: webhookA,
        request: () => ({
          path: `/api/app/webhooks/${held.webhookIdA}/deliveries/${held.deliveryIdA}/redeliver`,
          method: "POST",
          params: { id: held.webhookIdA, deliveryId: held.deliveryIdA },
        }),
        expect: WEBHOOK_MANAGERS,
      },
    ],
  },
  addonApiRow("api.app.studios.social-media.ts", "/api/app/studios/social-media", (f) => ({
    studioId: f.a.studioId,
    action: "enable",
  })),
  addonApiRow("api.app.e2e-tests.ts", "/api/app/e2e-tests", (f) => ({
    studioId: f.a.studioId,
    action: "enable",
  })),
  addonApiRow("api.app.chromatic.ts", "/api/app/chromatic", (f) => ({
    studioId: f.a.studioId,
    action: "enable",
    chromaticProjectToken: "chpt_0123456789",
  })),
  {
    file: "api.app.e2e-test-runs.ts",
    cases: [
      {
        name: "POST (405)",
        fn: "action",
        request: (f) => ({ path: `/api/app/e2e-test-runs?repo=${f.a.repo}` }),
        expect: NOT_ALLOWED,
      },
      {
        name: "GET the runs of A's site repository",
        fn: "loader",
        request: (f) => ({ path: `/api/app/e2e-test-runs?repo=${f.a.repo}` }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "api.app.integrations.$integrationId.ts",
    cases: [
      {
        name: "GET A's Stripe accounts",
        fn: "loader",
        request: (f) => ({
          path: `/api/app/integrations/payments?action=get-accounts&studioId=${f.a.studioId}`,
          params: { integrationId: "payments" },
        }),
        expect: VIEWERS,
      },
      {
        name: "POST add-account to A",
        fn: "action",
        request: (f, actor) => ({
          path: "/api/app/integrations/payments",
          params: { integrationId: "payments" },
          json: {
            action: "add-account",
            studio: { pagebuilderId: f.a.studioId },
            stripeAccounts: {
              accountName: `API account of ${actor}`,
              stripePKey: `pk_test_api${actor}${next()}`,
              stripeSKey: `sk_test_Api${next().replace(/\W/g, "")}abc`,
            },
          },
        }),
        expect: MANAGERS,
      },
      {
        name: "POST connect-account on A with a state nobody started",
        fn: "action",
        request: (f) => ({
          path: "/api/app/integrations/payments",
          params: { integrationId: "payments" },
          json: {
            action: "connect-account",
            studio: { pagebuilderId: f.a.studioId },
            authorizationCode: "ac_forged",
            state: `${f.a.studioId}.${"F".repeat(32)}`,
          },
        }),
        expect: { ...everyone(status(400)), anonymous: "deny" },
      },
      {
        name: "POST exchange_token on A with a state nobody started",
        fn: "action",
        request: (f) => ({
          path: "/api/app/integrations/social-accounts",
          params: { integrationId: "social-accounts" },
          json: {
            action: "exchange_token",
            integration: { platform: "instagram" },
            pageBuilderId: f.a.studioId,
            authorizationCode: "forged-code",
            state: `${f.a.studioId}.${"F".repeat(32)}`,
          },
        }),
        expect: { ...everyone(status(400)), anonymous: "deny" },
      },
      {
        name: "PATCH unlink_account of A's Instagram account",
        fn: "action",
        setup: socialAccountA,
        request: (f) => ({
          path: "/api/app/integrations/social-accounts",
          method: "PATCH",
          params: { integrationId: "social-accounts" },
          json: {
            action: "unlink_account",
            integration: { platform: "instagram" },
            pageBuilderId: f.a.studioId,
            accountId: SOCIAL_ACCOUNT_A,
          },
        }),
        expect: MANAGERS,
      },
    ],
  },
  {
    file: "api.payments.stripe.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/payments/stripe" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST list the products of A's Stripe account",
        fn: "action",
        setup: paymentAccountA,
        request: () => ({
          path: "/api/payments/stripe?resource=products&action=list",
          json: { accountId: PAYMENT_ACCOUNT_A, limit: 3 },
        }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "api.app.domains.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/domains" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "PUT update A's domain",
        fn: "action",
        request: (f) => ({
          path: "/api/app/domains",
          method: "PUT",
          json: {
            type: "site",
            action: "update",
            domain: `api-${next()}.example.com`,
            studioId: f.a.studioId,
          },
        }),
        expect: MANAGERS,
      },
      {
        name: "PUT revert A's domain",
        fn: "action",
        request: (f) => ({
          path: "/api/app/domains",
          method: "PUT",
          json: { action: "revert", domain: "", studioId: f.a.studioId },
        }),
        expect: MANAGERS,
      },
    ],
  },
  {
    file: "api.app.members.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/members" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST invite to A",
        fn: "action",
        request: (f) => ({
          path: "/api/app/members",
          json: { studioId: f.a.studioId, email: `invitee-${next()}@example.com`, role: "editor" },
        }),
        expect: MANAGERS,
      },
      {
        name: "PATCH accept A's invitation",
        fn: "action",
        request: (f, actor) => ({
          path: "/api/app/members",
          method: "PATCH",
          json: {
            studioId: f.a.studioId,
            memberInvitationKey: f.invitationKeyA,
            action: "accept",
            email: emailOf(f, actor),
          },
        }),
        expect: allow(["invited"]),
      },
      {
        name: "PATCH leave A",
        fn: "action",
        request: (f) => ({
          path: "/api/app/members",
          method: "PATCH",
          json: { studioId: f.a.studioId, action: "leave" },
        }),
        expect: allow(["editor", "developer", "admin"]),
      },
      {
        name: "PATCH change the developer's role",
        fn: "action",
        request: (f) => ({
          path: "/api/app/members",
          method: "PATCH",
          json: {
            studioId: f.a.studioId,
            action: "role",
            memberId: f.memberIds.developer,
            role: "editor",
          },
        }),
        expect: MANAGERS,
      },
      {
        name: "DELETE revoke the invitation",
        fn: "action",
        request: (f) => ({
          path: "/api/app/members",
          method: "DELETE",
          json: {
            studioId: f.a.studioId,
            memberId: f.memberIds.invited,
            memberEmail: f.users.invited.email,
            memberInvitationKey: f.invitationKeyA,
          },
        }),
        expect: MANAGERS,
      },
      {
        name: "DELETE remove the editor",
        fn: "action",
        request: (f) => ({
          path: "/api/app/members",
          method: "DELETE",
          json: {
            studioId: f.a.studioId,
            memberId: f.memberIds.editor,
            memberEmail: f.users.editor.email,
          },
        }),
        expect: MANAGERS,
      },
    ],
  },
  {
    file: "api.app.project-invite.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/project-invite" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST resend my studio invitation on A",
        fn: "action",
        request: (f, actor) => ({
          path: "/api/app/project-invite",
          json: { projectId: f.a.id, email: emailOf(f, actor) },
        }),
        // Support has no studio invitation of its own to resend.
        expect: { ...MEMBERS, platformAdmin: status(400) },
      },
      {
        name: "POST resend the developer's studio invitation on A",
        fn: "action",
        request: (f) => ({
          path: "/api/app/project-invite",
          json: { projectId: f.a.id, email: f.users.developer.email },
        }),
        expect: allow(["developer", "admin", "owner", "platformAdmin"]),
      },
    ],
  },
  {
    file: "api.app.retry.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/retry" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST retry A (failed)",
        fn: "action",
        setup: failA,
        request: (f) => ({
          path: "/api/app/retry",
          json: { name: f.a.name, idempotencyKey: f.a.idempotencyKey },
        }),
        expect: MEMBERS,
      },
    ],
  },
  {
    file: "api.auth.logout-callback.tsx",
    public: "the identity provider sends the browser back here after logging out",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/api/auth/logout-callback" }),
        expect: everyone(status(302, "/auth/login")),
      },
    ],
  },
  {
    file: "api.deployments.$studioId.ts",
    cases: [
      {
        name: "GET /api/deployments/{A}",
        fn: "loader",
        request: (f) => ({
          path: `/api/deployments/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
        }),
        expect: VIEWERS,
      },
      {
        name: "POST (405)",
        fn: "action",
        request: (f) => ({
          path: `/api/deployments/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          json: {},
        }),
        expect: NOT_ALLOWED,
      },
    ],
  },
  {
    file: "api.openapi[.]json.ts",
    public: "the OpenAPI document of the JSON API",
    cases: [
      { name: "GET", fn: "loader", request: () => ({ path: "/api/openapi.json" }), expect: PUBLIC },
    ],
  },
  {
    file: "api.user.ts",
    cases: [
      {
        name: "POST (405)",
        fn: "action",
        request: () => ({ path: "/api/user" }),
        expect: NOT_ALLOWED,
      },
      // Each signed-in actor reads only themselves: the answer comes from the session, never a parameter.
      {
        name: "GET /api/user",
        fn: "loader",
        request: () => ({ path: "/api/user" }),
        expect: SIGNED_IN,
      },
    ],
  },
  {
    file: "api.app.forms.$id.ts",
    cases: [
      {
        name: "POST (405)",
        fn: "action",
        request: () => ({ path: `/api/app/forms/${held.contactFormIdA}` }),
        expect: NOT_ALLOWED,
      },
      {
        name: "GET A's Contact form",
        fn: "loader",
        setup: contactFormA,
        request: () => ({
          path: `/api/app/forms/${held.contactFormIdA}`,
          params: { id: held.contactFormIdA },
        }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "api.app.forms.export.$id.ts",
    cases: [
      {
        name: "POST (405)",
        fn: "action",
        setup: contactFormA,
        request: () => ({
          path: `/api/app/forms/export/${held.contactFormIdA}`,
          params: { id: held.contactFormIdA },
        }),
        expect: NOT_ALLOWED,
      },
      {
        name: "GET A's Contact form as CSV",
        fn: "loader",
        setup: contactFormA,
        request: () => ({
          path: `/api/app/forms/export/${held.contactFormIdA}`,
          params: { id: held.contactFormIdA },
        }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "api.app.forms.settings.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/forms/settings" }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST the settings of A's Contact form",
        fn: "action",
        setup: contactFormA,
        request: () => ({
          path: "/api/app/forms/settings",
          json: { formId: held.contactFormIdA, enabled: true },
        }),
        expect: MANAGERS,
      },
    ],
  },
  {
    file: "api.app.forms.submissions.delete.$id.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/forms/submissions/delete/x", params: { id: "x" } }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST delete a submission of A's Contact form",
        fn: "action",
        setup: contactFormA,
        request: () => ({
          path: `/api/app/forms/submissions/delete/00000000-0000-4000-8000-000000000000`,
          params: { id: "00000000-0000-4000-8000-000000000000" },
          json: { formId: held.contactFormIdA },
        }),
        // Managers reach the submission lookup (not found); the rest are refused before it.
        expect: { ...MANAGERS, admin: status(404), owner: status(404), platformAdmin: status(404) },
      },
    ],
  },
  {
    file: "api.app.forms.submissions.deleteAll.$id.ts",
    cases: [
      {
        name: "GET (405)",
        fn: "loader",
        request: () => ({ path: "/api/app/forms/submissions/deleteAll/x", params: { id: "x" } }),
        expect: NOT_ALLOWED,
      },
      {
        name: "POST delete all submissions of A's Contact form",
        fn: "action",
        setup: contactFormA,
        request: () => ({
          path: `/api/app/forms/submissions/deleteAll/${held.contactFormIdA}`,
          params: { id: held.contactFormIdA },
          json: { formId: held.contactFormIdA },
        }),
        expect: MANAGERS,
      },
    ],
  },
  {
    file: "api.newsletter.ts",
    cases: [
      {
        name: "GET A's sender domains",
        fn: "loader",
        request: (f) => ({ path: `/api/newsletter?path=domains&studioId=${f.a.studioId}` }),
        expect: VIEWERS,
      },
      {
        name: "POST add a sender domain to A",
        fn: "action",
        setup: senderSettingsA,
        request: (f) => ({
          path: "/api/newsletter?path=domains",
          json: { studioId: f.a.studioId, domain: "a-perm.example", region: "us-east-1" },
        }),
        expect: MANAGERS,
      },
    ],
  },
];
