/** Cross-project rows of the permission table. */
import { type CrossCase, dashboardForm, next } from "./table";
import {
  PAYMENT_ACCOUNT_A,
  PAYMENT_ACCOUNT_B,
  SOCIAL_ACCOUNT_B,
  TICKET_B,
  accountsOfB,
  held,
  ticketB,
} from "./fixture";
import { ensureDefaultForm } from "~/services/forms/forms.server";

export const CROSS: CrossCase[] = [
  {
    name: "B's support ticket",
    file: "_app.sites.support.$ticketId.tsx",
    fn: "loader",
    setup: ticketB,
    request: () => ({ path: `/sites/support/${TICKET_B}`, params: { ticketId: TICKET_B } }),
  },
  {
    name: "reply on B's support ticket",
    file: "_app.sites.support.$ticketId.tsx",
    fn: "action",
    setup: ticketB,
    request: () => ({
      path: `/sites/support/${TICKET_B}`,
      params: { ticketId: TICKET_B },
      form: { intent: "ticket-comment", body: "Let me in" },
    }),
  },
  {
    name: "dashboard of B",
    file: "_app._project.sites.$studioId/route.tsx",
    fn: "loader",
    request: (f) => ({ path: `/sites/${f.b.studioId}`, params: { studioId: f.b.studioId } }),
  },
  {
    name: "invite to B with B's dashboard form",
    file: "_app._project.sites.$studioId/route.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
      form: { intent: "member-invite", email: `cross-${next()}@example.com`, role: "admin" },
    }),
  },
  {
    name: "remove B's member with A's dashboard form",
    file: "_app._project.sites.$studioId/route.tsx",
    fn: "action",
    request: (f) =>
      dashboardForm(f, {
        intent: "member-remove",
        memberId: f.memberIds.b,
        memberEmail: f.users.memberB.email,
      }),
    expect: "refused",
  },
  {
    name: "accept B's invitation (someone else's) from /sites",
    file: "_app.sites._index.tsx",
    fn: "action",
    expect: "refused",
    request: (f) => ({
      path: "/sites?index",
      form: { intent: "invitation-accept", studioId: f.b.studioId },
    }),
  },
  {
    name: "decline B's invitation (someone else's) on B's dashboard",
    file: "_app._project.sites.$studioId/route.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
      form: { intent: "invitation-decline" },
    }),
  },
  {
    name: "activity of B",
    file: "_app._project.sites.$studioId_.activity.tsx",
    fn: "loader",
    request: (f) => ({
      path: `/sites/${f.b.studioId}/activity`,
      params: { studioId: f.b.studioId },
    }),
  },
  {
    name: "data version of B",
    file: "_app.sites.$studioId_.version.ts",
    fn: "loader",
    request: (f) => ({
      path: `/sites/${f.b.studioId}/version`,
      params: { studioId: f.b.studioId },
    }),
  },
  {
    name: "GET /api/app/{B._id}",
    file: "api.app.$id.ts",
    fn: "loader",
    request: (f) => ({ path: `/api/app/${f.b.id}`, params: { id: f.b.id } }),
  },
  {
    name: "GET /api/deployments/{B}",
    file: "api.deployments.$studioId.ts",
    fn: "loader",
    request: (f) => ({
      path: `/api/deployments/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
    }),
  },
  {
    name: "deploy B",
    file: "api.app.deployments.ts",
    fn: "action",
    request: (f) => ({ path: "/api/app/deployments", json: { id: f.b.id } }),
  },
  {
    name: "retry B through the API",
    file: "api.app.retry.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/retry",
      json: { name: f.b.name, idempotencyKey: f.b.idempotencyKey },
    }),
  },
  {
    name: "retry B through A's failed-deployment page",
    file: "_app._project.sites.$studioId_.failed-deployment.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/${f.a.studioId}/failed-deployment`,
      params: { studioId: f.a.studioId },
      form: { name: f.b.name, idempotencyKey: f.b.idempotencyKey },
    }),
  },
  {
    name: "invite to B",
    file: "api.app.members.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/members",
      json: { studioId: f.b.studioId, email: `cross-${next()}@example.com`, role: "admin" },
    }),
  },
  {
    name: "remove B's member through B",
    file: "api.app.members.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/members",
      method: "DELETE",
      json: { studioId: f.b.studioId, memberId: f.memberIds.b, memberEmail: f.users.memberB.email },
    }),
  },
  {
    name: "remove B's member through A",
    file: "api.app.members.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/members",
      method: "DELETE",
      json: { studioId: f.a.studioId, memberId: f.memberIds.b, memberEmail: f.users.memberB.email },
    }),
  },
  {
    name: "change the role of B's member through A",
    file: "api.app.members.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/members",
      method: "PATCH",
      json: { studioId: f.a.studioId, action: "role", memberId: f.memberIds.b, role: "admin" },
    }),
  },
  {
    name: "accept B's invitation (someone else's) through A",
    file: "api.app.members.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/members",
      method: "PATCH",
      json: { studioId: f.a.studioId, memberInvitationKey: f.invitationKeyB, action: "accept" },
    }),
  },
  {
    name: "leave B",
    file: "api.app.members.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/members",
      method: "PATCH",
      json: { studioId: f.b.studioId, action: "leave" },
    }),
  },
  {
    name: "resend the studio invitation of B's member",
    file: "api.app.project-invite.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/project-invite",
      json: { projectId: f.b.id, email: f.users.memberB.email },
    }),
  },
  {
    name: "Resend Invitation form on B",
    file: "resources.studio-invite.ts",
    fn: "action",
    request: (f) => ({
      path: "/resources/studio-invite",
      form: { projectId: f.b.studioId, email: f.users.admin.email },
    }),
  },
  {
    name: "launch B's studio",
    file: "resources.studio-launch.ts",
    fn: "action",
    request: (f) => ({
      path: "/resources/studio-launch",
      form: { studioId: f.b.studioId },
      headers: { Accept: "application/json" },
    }),
  },
  {
    name: "Dev Console of B",
    file: "resources.studio-launch.ts",
    fn: "action",
    request: (f) => ({
      path: "/resources/studio-launch",
      form: { studioId: f.b.studioId, target: "dev-console" },
      headers: { Accept: "application/json" },
    }),
  },
  {
    name: "End To End Tests runs of B's repository",
    file: "api.app.e2e-test-runs.ts",
    fn: "loader",
    request: (f) => ({ path: `/api/app/e2e-test-runs?repo=${f.b.repo}` }),
  },
  {
    name: "Stripe accounts of B",
    file: "_app._project.sites.integrations.$integrationId_.$studioId.tsx",
    fn: "loader",
    request: (f) => ({
      path: `/sites/integrations/payments/${f.b.studioId}`,
      params: { integrationId: "payments", studioId: f.b.studioId },
    }),
  },
  {
    name: "add a Stripe account to B",
    file: "_app._project.sites.integrations.$integrationId_.$studioId.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/integrations/payments/${f.b.studioId}`,
      params: { integrationId: "payments", studioId: f.b.studioId },
      form: {
        intent: "payment-add",
        accountName: "Not mine",
        publishableKey: `pk_test_cross${next()}`,
        secretKey: `sk_test_Cross${next().replace(/\W/g, "")}abc`,
      },
    }),
  },
  {
    name: "remove-account of B's account through the API",
    file: "api.app.integrations.$integrationId.ts",
    fn: "action",
    request: (f) => ({
      path: "/api/app/integrations/payments",
      params: { integrationId: "payments" },
      json: {
        action: "remove-account",
        studio: { pagebuilderId: f.b.studioId },
        account: { id: PAYMENT_ACCOUNT_A },
      },
    }),
  },
  {
    name: "Connect an Instagram account to B with B's dashboard form",
    file: "_app._project.sites.$studioId/route.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
      form: { intent: "social-link", platform: "instagram", professional: "on", mode: "tab" },
    }),
  },
  {
    name: "remove-account of B's account named by its stripePKey, through B",
    file: "api.app.integrations.$integrationId.ts",
    fn: "action",
    setup: accountsOfB,
    request: (f) => ({
      path: "/api/app/integrations/payments",
      params: { integrationId: "payments" },
      json: {
        action: "remove-account",
        studio: { pagebuilderId: f.b.studioId },
        account: { stripePKey: "pk_test_shopb" },
      },
    }),
  },
  {
    name: "remove-account of B's account named by its accountName, through A",
    file: "api.app.integrations.$integrationId.ts",
    fn: "action",
    setup: accountsOfB,
    request: (f) => ({
      path: "/api/app/integrations/payments",
      params: { integrationId: "payments" },
      json: {
        action: "remove-account",
        studio: { pagebuilderId: f.a.studioId },
        account: { accountName: "Shop B" },
      },
    }),
  },
  {
    name: "unlink B's Instagram account through the API",
    file: "api.app.integrations.$integrationId.ts",
    fn: "action",
    setup: accountsOfB,
    request: (f) => ({
      path: "/api/app/integrations/social-accounts",
      method: "PATCH",
      params: { integrationId: "social-accounts" },
      json: {
        action: "unlink_account",
        integration: { platform: "instagram" },
        pageBuilderId: f.b.studioId,
        accountId: SOCIAL_ACCOUNT_B,
      },
    }),
  },
  {
    name: "list the products of B's Stripe account",
    file: "api.payments.stripe.ts",
    fn: "action",
    setup: accountsOfB,
    request: () => ({
      path: "/api/payments/stripe?resource=products&action=list",
      json: { accountId: PAYMENT_ACCOUNT_B },
    }),
  },
  {
    name: "start Stripe Connect on B",
    file: "_app._project.sites.integrations.$integrationId_.$studioId.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/integrations/payments/${f.b.studioId}`,
      params: { integrationId: "payments", studioId: f.b.studioId },
      form: { intent: "stripe-connect", mode: "tab" },
    }),
  },
  {
    name: "save B's newsletter settings with B's form",
    file: "_app._project.sites.newsletter.$studioId.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/newsletter/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
      form: { intent: "newsletter-save", fromName: "Not mine" },
    }),
  },
  {
    name: "delete all submissions of B's Contact form",
    file: "_app._project.sites.forms.$studioId.tsx",
    fn: "action",
    setup: async (f) => {
      held.contactFormIdB = await ensureDefaultForm(f.b.id);
    },
    request: (f) => ({
      path: `/sites/forms/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
      form: { intent: "submissions-delete-all", formId: held.contactFormIdB },
    }),
  },
  {
    name: "delete all submissions of B's form through A's page",
    file: "_app._project.sites.forms.$studioId.tsx",
    fn: "action",
    setup: async (f) => {
      held.contactFormIdB = await ensureDefaultForm(f.b.id);
    },
    request: (f) => ({
      path: `/sites/forms/${f.a.studioId}`,
      params: { studioId: f.a.studioId },
      form: { intent: "submissions-delete-all", formId: held.contactFormIdB },
    }),
    // A's page is A's: B's form is not found there, said in a toast, and nothing is deleted.
    expect: "refused",
  },
  {
    name: "export B's submissions",
    file: "resources.forms-export.$formId.ts",
    fn: "loader",
    setup: async (f) => {
      held.contactFormIdB = await ensureDefaultForm(f.b.id);
    },
    request: () => ({
      path: `/resources/forms-export/${held.contactFormIdB}`,
      params: { formId: held.contactFormIdB },
    }),
  },
  {
    name: "delete B through B's Settings page",
    file: "_app._project.sites.settings.$studioId.tsx",
    fn: "action",
    request: (f) => ({
      path: `/sites/settings/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
      form: { intent: "project-delete", confirmName: f.b.name },
    }),
  },
  {
    name: "Configure an integration on B",
    file: "studios.integrations.$integrationId.$studioId.($adminUserId).tsx",
    fn: "loader",
    request: (f) => ({
      path: `/studios/integrations/social-accounts/${f.b.studioId}`,
      params: { integrationId: "social-accounts", studioId: f.b.studioId },
    }),
  },
  {
    name: "autologin splash of B",
    file: "studios.autologin.$studioId.tsx",
    fn: "action",
    request: (f) => ({
      path: `/studios/autologin/${f.b.studioId}`,
      params: { studioId: f.b.studioId },
      form: { hideSplash: "on" },
    }),
  },
  {
    name: "accept B's invitation on its card",
    file: "invitations.$invitationKey.tsx",
    fn: "action",
    expect: "refused",
    request: (f) => ({
      path: `/invitations/${f.invitationKeyB}`,
      params: { invitationKey: f.invitationKeyB },
      form: { intent: "accept" },
    }),
  },
];
