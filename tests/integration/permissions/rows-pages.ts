/** Rows of the permission table: pages. */
import {
  ADDON_FORM,
  INVITED_OR_MEMBERS,
  INVITEE_FORM,
  MANAGERS,
  MANAGERS_FORM,
  MEMBERS,
  PLATFORM_ADMIN,
  type Row,
  SIGNED_IN,
  TICKET_READERS,
  VIEWERS,
  WEBHOOK_MANAGERS,
  WEBHOOK_MANAGERS_FORM,
  allow,
  dashboardForm,
  everyone,
  listsProjectA,
  next,
  sectionRow,
  status,
} from "./table";
import {
  PAYMENT_ACCOUNT_A,
  SOCIAL_ACCOUNT_A,
  TICKET_A,
  type Fixture,
  contactFormA,
  failA,
  held,
  publishedDeployA,
  savedTemplateA,
  senderSettingsA,
  socialAccountA,
  ticketA,
  ticketAState,
  webhookA,
} from "./fixture";
import { and, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { expect } from "vitest";
import { members, paymentAccounts, projects } from "~/db/schema";

export const ROWS_PAGES: Row[] = [
  {
    file: "_app._index.tsx",
    cases: [
      {
        name: "GET / (the project list)",
        fn: "loader",
        request: () => ({ path: "/" }),
        expect: SIGNED_IN,
        check: listsProjectA((b) =>
          (b as { data: { studioId: string }[] }).data.map((p) => p.studioId),
        ),
      },
    ],
  },
  {
    file: "_app.tsx",
    cases: [
      {
        name: "GET /sites/{A}?pq= (the picker names A for its viewers, and lists only one's own)",
        fn: "loader",
        request: (f) => ({ path: `/sites/${f.a.studioId}?pq=` }),
        expect: SIGNED_IN,
        check: async (res, actor, f) => {
          if (res.status !== 200) return;
          const body = (await res.clone().json()) as {
            picker: { projects: { studioId: string }[]; selected: { studioId: string } | null };
          };
          const member = MEMBERS[actor] === "allow";
          const viewer = VIEWERS[actor] === "allow";
          expect(body.picker.selected?.studioId ?? null, actor).toBe(viewer ? f.a.studioId : null);
          expect(
            body.picker.projects.some((p) => p.studioId === f.a.studioId),
            actor,
          ).toBe(member);
        },
      },
    ],
  },
  {
    file: "_app.admin.tsx",
    cases: [
      {
        name: "GET /admin",
        fn: "loader",
        request: () => ({ path: "/admin" }),
        expect: PLATFORM_ADMIN,
      },
      {
        name: "POST /admin approve",
        fn: "action",
        request: (f) => ({ path: "/admin", form: { intent: "approve", id: f.accessRequestId } }),
        expect: PLATFORM_ADMIN,
      },
    ],
  },
  {
    file: "_app.admin_.tokens.tsx",
    cases: [
      {
        name: "GET /admin/tokens",
        fn: "loader",
        request: () => ({ path: "/admin/tokens" }),
        expect: PLATFORM_ADMIN,
      },
      {
        name: "POST /admin/tokens revoke a leaked token of B's owner",
        fn: "action",
        request: (f) => ({ path: "/admin/tokens", form: { token: f.leakedToken } }),
        expect: PLATFORM_ADMIN,
      },
    ],
  },
  {
    file: "_app.dev.outbox.tsx",
    cases: [
      {
        name: "GET /dev/outbox",
        fn: "loader",
        request: () => ({ path: "/dev/outbox" }),
        expect: PLATFORM_ADMIN,
      },
    ],
  },
  {
    file: "_app._project.tsx",
    cases: [
      {
        name: "GET /sites/{A}'s project frame (the invitee gets no project, support the project)",
        fn: "loader",
        request: (f) => ({ path: `/sites/${f.a.studioId}`, params: { studioId: f.a.studioId } }),
        expect: INVITED_OR_MEMBERS,
        check: async (res, actor) => {
          if (res.status !== 200) return;
          const body = (await res.clone().json()) as { project: { role: string } | null };
          // The invitee gets nothing of the project; a platform admin outside it sees it as
          // support.
          expect(body.project === null, actor).toBe(actor === "invited");
          if (actor === "platformAdmin") expect(body.project?.role).toBe("support");
        },
      },
    ],
  },
  {
    file: "_app._project.sites.$studioId/route.tsx",
    cases: [
      {
        name: "GET /sites/{A} (dashboard; the invitee gets the invitation card, support the page)",
        fn: "loader",
        request: (f) => ({ path: `/sites/${f.a.studioId}`, params: { studioId: f.a.studioId } }),
        expect: INVITED_OR_MEMBERS,
        check: async (res, actor) => {
          if (res.status !== 200) return;
          const body = (await res.clone().json()) as { invitation: unknown; builds?: unknown };
          // The invitee sees the card and nothing of the project; members see no card.
          expect(Boolean(body.invitation), actor).toBe(actor === "invited");
          expect(body.builds === undefined, actor).toBe(actor === "invited");
        },
      },
      {
        name: "POST invitation-accept (the card's Accept Invitation)",
        fn: "action",
        request: (f) => dashboardForm(f, { intent: "invitation-accept" }),
        expect: INVITEE_FORM,
      },
      {
        name: "POST invitation-decline (the card's Decline)",
        fn: "action",
        request: (f) => dashboardForm(f, { intent: "invitation-decline" }),
        expect: INVITEE_FORM,
      },
      {
        name: "POST member-invite",
        fn: "action",
        request: (f) =>
          dashboardForm(f, {
            intent: "member-invite",
            email: `form-invitee-${next()}@example.com`,
            role: "developer",
          }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST member-resend (the invitation)",
        fn: "action",
        request: (f) =>
          dashboardForm(f, { intent: "member-resend", memberId: f.memberIds.invited }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST member-remove (the editor)",
        fn: "action",
        request: (f) =>
          dashboardForm(f, {
            intent: "member-remove",
            memberId: f.memberIds.editor,
            memberEmail: f.users.editor.email,
          }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST member-role (the developer becomes editor)",
        fn: "action",
        request: (f) =>
          dashboardForm(f, {
            intent: "member-role",
            memberId: f.memberIds.developer,
            role: "editor",
          }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST social-link (Connect an Instagram account: to the authorization page)",
        fn: "action",
        request: (f) =>
          dashboardForm(f, {
            intent: "social-link",
            platform: "instagram",
            professional: "on",
            mode: "tab",
          }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST social-unlink (A's Instagram account)",
        fn: "action",
        setup: socialAccountA,
        request: (f) => dashboardForm(f, { intent: "social-unlink", accountId: SOCIAL_ACCOUNT_A }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST domain-change (set a custom domain)",
        fn: "action",
        request: (f) =>
          dashboardForm(f, { intent: "domain-change", domain: `form-${next()}.example.com` }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST domain-change (revert the custom domain)",
        fn: "action",
        request: (f) => dashboardForm(f, { intent: "domain-change", domain: "" }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST addon-toggle (GPT on)",
        fn: "action",
        request: (f) => dashboardForm(f, { intent: "addon-toggle", addon: "gpt", enabled: "true" }),
        expect: ADDON_FORM,
      },
      {
        name: "POST member-leave",
        fn: "action",
        request: (f) => dashboardForm(f, { intent: "member-leave" }),
        expect: {
          ...allow(["editor", "developer", "admin"]),
          owner: "refused",
          platformAdmin: "refused",
        },
      },
    ],
  },
  {
    file: "_app.sites.domains.tsx",
    cases: [
      {
        name: "GET /sites/domains (the user's own projects' domains)",
        fn: "loader",
        request: () => ({ path: "/sites/domains" }),
        expect: SIGNED_IN,
      },
    ],
  },
  {
    file: "_app.sites.support._index.tsx",
    cases: [
      {
        name: "GET /sites/support (A's owner's ticket for A's owner, admins and support only)",
        fn: "loader",
        setup: ticketA,
        request: () => ({ path: "/sites/support" }),
        expect: SIGNED_IN,
        check: async (res, actor) => {
          if (res.status !== 200) return;
          const body = (await res.clone().json()) as { page: { tickets: { id: string }[] } };
          const listed = body.page.tickets.some((t) => t.id === TICKET_A);
          expect(listed, `${actor} sees A's ticket`).toBe(TICKET_READERS[actor] === "allow");
        },
      },
      {
        name: "POST ticket-create (about no project)",
        fn: "action",
        request: (_f, actor) => ({
          path: "/sites/support?index",
          form: { intent: "ticket-create", subject: `Help ${actor}`, description: "Please" },
        }),
        expect: SIGNED_IN,
      },
      {
        name: "POST ticket-create about A (a project one may not view is refused as a field error)",
        fn: "action",
        request: (f, actor) => ({
          path: "/sites/support?index",
          form: {
            intent: "ticket-create",
            subject: `Help with A ${actor}`,
            projectId: f.a.id,
            description: "Please",
          },
        }),
        expect: { ...VIEWERS, outsider: status(400), invited: status(400) },
      },
    ],
  },
  {
    file: "_app.sites.support.$ticketId.tsx",
    cases: [
      {
        name: "GET A's ticket",
        fn: "loader",
        setup: ticketA,
        request: () => ({ path: `/sites/support/${TICKET_A}`, params: { ticketId: TICKET_A } }),
        expect: TICKET_READERS,
      },
      {
        name: "POST ticket-comment on A's ticket",
        fn: "action",
        setup: ticketA,
        request: () => ({
          path: `/sites/support/${TICKET_A}`,
          params: { ticketId: TICKET_A },
          form: { intent: "ticket-comment", body: "Any news?" },
        }),
        expect: TICKET_READERS,
        check: async (_res, actor) => {
          const replies = TICKET_READERS[actor] === "allow" ? 1 : 0;
          expect(await ticketAState(), actor).toEqual({ status: "open", replies });
        },
      },
      {
        name: "POST ticket-status of A's ticket (support only; its other viewers are refused)",
        fn: "action",
        setup: ticketA,
        request: () => ({
          path: `/sites/support/${TICKET_A}`,
          params: { ticketId: TICKET_A },
          form: { intent: "ticket-status", status: "in_progress" },
        }),
        expect: {
          ...allow(["platformAdmin"]),
          admin: "refused",
          owner: "refused",
        },
        check: async (_res, actor) => {
          const changed = actor === "platformAdmin";
          expect(await ticketAState(), actor).toEqual({
            status: changed ? "in_progress" : "open",
            replies: 0,
          });
        },
      },
    ],
  },
  {
    file: "_app.sites.integrations._index.tsx",
    cases: [
      {
        name: "GET /sites/integrations (the catalogue)",
        fn: "loader",
        request: () => ({ path: "/sites/integrations" }),
        expect: SIGNED_IN,
      },
    ],
  },
  {
    file: "_app.sites.integrations.$integrationId.tsx",
    cases: [
      {
        name: "GET /sites/integrations/payments (the projects to configure)",
        fn: "loader",
        request: () => ({
          path: "/sites/integrations/payments",
          params: { integrationId: "payments" },
        }),
        expect: SIGNED_IN,
        // Project A is listed for its owner and members, and platform admins (support).
        check: async (res, actor, f) => {
          if (res.status !== 200) return;
          const body = (await res.clone().json()) as { data: { configure: string }[] };
          const listed = body.data.some((p) => p.configure.includes(`/${f.a.studioId}`));
          expect(listed, `${actor} sees project A`).toBe(VIEWERS[actor] === "allow");
        },
      },
    ],
  },
  {
    file: "_app._project.sites.integrations.$integrationId_.$studioId.tsx",
    cases: [
      {
        name: "GET A's Stripe accounts",
        fn: "loader",
        request: (f) => ({
          path: `/sites/integrations/payments/${f.a.studioId}`,
          params: { integrationId: "payments", studioId: f.a.studioId },
        }),
        expect: VIEWERS,
      },
      {
        name: "POST add a Stripe account to A",
        fn: "action",
        request: (f, actor) => ({
          path: `/sites/integrations/payments/${f.a.studioId}`,
          params: { integrationId: "payments", studioId: f.a.studioId },
          form: {
            intent: "payment-add",
            accountName: `Account of ${actor}`,
            publishableKey: `pk_test_${actor}${next()}`,
            secretKey: `sk_test_Secret${next().replace(/\W/g, "")}abc`,
          },
        }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST remove A's Stripe account",
        fn: "action",
        setup: async (f) => {
          await db().delete(paymentAccounts).where(eq(paymentAccounts.projectId, f.a.id));
          await db().insert(paymentAccounts).values({
            id: PAYMENT_ACCOUNT_A,
            projectId: f.a.id,
            accountName: "Shop A",
            publishableKey: "pk_test_shopa",
            secretKeyEncrypted: "v1.00000000.x.y.z",
            secretKeyLast4: "abcd",
            apiVersion: "2020-08-27",
          });
        },
        request: (f) => ({
          path: `/sites/integrations/payments/${f.a.studioId}`,
          params: { integrationId: "payments", studioId: f.a.studioId },
          form: { intent: "payment-remove", accountId: PAYMENT_ACCOUNT_A },
        }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST stripe-connect on A (to Stripe Connect's authorization page)",
        fn: "action",
        request: (f) => ({
          path: `/sites/integrations/payments/${f.a.studioId}`,
          params: { integrationId: "payments", studioId: f.a.studioId },
          form: { intent: "stripe-connect", mode: "tab" },
        }),
        expect: MANAGERS_FORM,
      },
    ],
  },
  {
    file: "studios.integrations.$integrationId.$studioId.($adminUserId).tsx",
    cases: [
      {
        name: "GET Configure payments on A",
        fn: "loader",
        request: (f) => ({
          path: `/studios/integrations/payments/${f.a.studioId}`,
          params: { integrationId: "payments", studioId: f.a.studioId },
        }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "_app._project.sites.$studioId_.activity.tsx",
    cases: [
      {
        name: "GET /sites/{A}/activity",
        fn: "loader",
        request: (f) => ({
          path: `/sites/${f.a.studioId}/activity`,
          params: { studioId: f.a.studioId },
        }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "_app._project.sites.$studioId_.webhooks.tsx",
    cases: [
      {
        name: "GET /sites/{A}/webhooks",
        fn: "loader",
        setup: webhookA,
        request: (f) => ({
          path: `/sites/${f.a.studioId}/webhooks`,
          params: { studioId: f.a.studioId },
        }),
        expect: WEBHOOK_MANAGERS,
      },
      {
        // A refusal is said with the form (403): "deny" covers editors, developers and support.
        name: "POST webhook-add on A",
        fn: "action",
        setup: webhookA,
        request: (f) => ({
          path: `/sites/${f.a.studioId}/webhooks`,
          params: { studioId: f.a.studioId },
          form: {
            intent: "webhook-add",
            url: "https://93.184.215.14/another",
            events: "member.joined",
            format: "standard",
          },
        }),
        expect: WEBHOOK_MANAGERS,
      },
      ...(["webhook-remove", "webhook-enable"] as const).map((intent) => ({
        name: `POST ${intent} of A's webhook`,
        fn: "action" as const,
        setup: webhookA,
        request: (f: Fixture) => ({
          path: `/sites/${f.a.studioId}/webhooks`,
          params: { studioId: f.a.studioId },
          form: { intent, webhookId: held.webhookIdA },
        }),
        expect: WEBHOOK_MANAGERS_FORM,
      })),
      {
        name: "POST webhook-redeliver of A's delivery",
        fn: "action",
        setup: webhookA,
        request: (f) => ({
          path: `/sites/${f.a.studioId}/webhooks`,
          params: { studioId: f.a.studioId },
          form: { intent: "webhook-redeliver", deliveryId: held.deliveryIdA },
        }),
        expect: WEBHOOK_MANAGERS_FORM,
      },
    ],
  },
  {
    file: "_app.sites.$studioId_.version.ts",
    cases: [
      {
        name: "GET /sites/{A}/version",
        fn: "loader",
        request: (f) => ({
          path: `/sites/${f.a.studioId}/version`,
          params: { studioId: f.a.studioId },
        }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "_app._project.sites.$studioId_.deployment-error.tsx",
    cases: [
      {
        name: "GET /sites/{A}/deployment-error (not failed: back to the dashboard)",
        fn: "loader",
        request: (f) => ({
          path: `/sites/${f.a.studioId}/deployment-error`,
          params: { studioId: f.a.studioId },
        }),
        expect: VIEWERS,
      },
    ],
  },
  {
    file: "_app._project.sites.$studioId_.failed-deployment.tsx",
    cases: [
      {
        name: "GET /sites/{A}/failed-deployment",
        fn: "loader",
        request: (f) => ({
          path: `/sites/${f.a.studioId}/failed-deployment`,
          params: { studioId: f.a.studioId },
        }),
        expect: VIEWERS,
      },
      {
        name: "POST Retry deploy of A (failed)",
        fn: "action",
        setup: failA,
        request: (f) => ({
          path: `/sites/${f.a.studioId}/failed-deployment`,
          params: { studioId: f.a.studioId },
          form: { name: f.a.name, idempotencyKey: f.a.idempotencyKey },
        }),
        expect: MEMBERS,
      },
    ],
  },
  {
    file: "_app.sites._index.tsx",
    cases: [
      {
        name: "GET /sites (with the pending invitations)",
        fn: "loader",
        request: () => ({ path: "/sites" }),
        expect: SIGNED_IN,
        check: async (res, actor, f) => {
          if (res.status !== 200) return;
          const body = (await res.clone().json()) as { invitations: { studioId: string }[] };
          // A's invitation to its invitee only; B's (to an address nobody here has) to no one.
          expect(
            body.invitations.map((i) => i.studioId),
            actor,
          ).toEqual(actor === "invited" ? [f.a.studioId] : []);
        },
      },
      {
        name: "POST invitation-accept of A",
        fn: "action",
        request: (f) => ({
          path: "/sites?index",
          form: { intent: "invitation-accept", studioId: f.a.studioId },
        }),
        expect: { ...allow(["invited"], "refused"), anonymous: "deny" },
      },
      {
        name: "POST invitation-decline of A",
        fn: "action",
        request: (f) => ({
          path: "/sites?index",
          form: { intent: "invitation-decline", studioId: f.a.studioId },
        }),
        expect: { ...allow(["invited"], "refused"), anonymous: "deny" },
      },
      {
        name: "POST create a business project",
        fn: "action",
        request: () => ({
          path: "/sites?index",
          form: { intent: "create", name: `Created ${next()}`, idempotencyKey: `k-${next()}` },
        }),
        expect: SIGNED_IN,
      },
      {
        name: "POST create an enterprise project (choosing the site type)",
        fn: "action",
        request: () => ({
          path: "/sites?index",
          form: {
            intent: "create",
            name: `Enterprise ${next()}`,
            siteType: "enterprise",
            idempotencyKey: `k-${next()}`,
          },
        }),
        expect: PLATFORM_ADMIN,
      },
    ],
  },
  sectionRow("analytics"),
  {
    ...sectionRow("forms"),
    cases: [
      ...sectionRow("forms").cases,
      {
        name: "POST form-settings of A's Contact form",
        fn: "action",
        setup: contactFormA,
        request: (f) => ({
          path: `/sites/forms/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: {
            intent: "form-settings",
            formId: held.contactFormIdA,
            enabled: "on",
            notificationEmails: "",
          },
        }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST submissions-delete-all of A's Contact form",
        fn: "action",
        setup: contactFormA,
        request: (f) => ({
          path: `/sites/forms/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "submissions-delete-all", formId: held.contactFormIdA },
        }),
        expect: MANAGERS_FORM,
      },
    ],
  },
  {
    ...sectionRow("newsletter"),
    cases: [
      ...sectionRow("newsletter").cases,
      {
        name: "POST newsletter-save on A",
        fn: "action",
        request: (f) => ({
          path: `/sites/newsletter/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "newsletter-save", fromName: "A news", fromEmail: "news@a-perm.example" },
        }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST newsletter-test on A (a mail to oneself)",
        fn: "action",
        request: (f) => ({
          path: `/sites/newsletter/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "newsletter-test" },
        }),
        expect: VIEWERS,
      },
      {
        name: "POST template-save on A",
        fn: "action",
        setup: savedTemplateA,
        request: (f) => ({
          path: `/sites/newsletter/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "template-save", name: "A monthly", body: "<p>A</p>" },
        }),
        // The form's own 403 reply (its message as the form's toast), not a redirect.
        expect: MANAGERS,
      },
      {
        name: "POST template-rename of A's template",
        fn: "action",
        setup: savedTemplateA,
        request: (f) => ({
          path: `/sites/newsletter/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "template-rename", templateId: held.templateIdA, name: "A renamed" },
        }),
        // The form's own 403 reply (its message as the form's toast), not a redirect.
        expect: MANAGERS,
      },
      {
        name: "POST template-delete of A's template",
        fn: "action",
        setup: savedTemplateA,
        request: (f) => ({
          path: `/sites/newsletter/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "template-delete", templateId: held.templateIdA },
        }),
        expect: MANAGERS_FORM,
      },
      {
        name: "POST sender-domain-add on A",
        fn: "action",
        setup: senderSettingsA,
        request: (f) => ({
          path: `/sites/newsletter/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "sender-domain-add" },
        }),
        expect: MANAGERS_FORM,
      },
    ],
  },
  {
    ...sectionRow("settings"),
    cases: [
      ...sectionRow("settings").cases,
      {
        name: "POST raise A's StackShift version",
        fn: "action",
        setup: async (f) => {
          await db().update(projects).set({ schemaVersion: 3 }).where(eq(projects.id, f.a.id));
        },
        request: (f) => ({
          path: `/sites/settings/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "schema-version", schemaVersion: "6" },
        }),
        expect: allow(["platformAdmin"]),
      },
      {
        name: "POST rename A (to its own name: nothing changes but the permission)",
        fn: "action",
        request: (f) => ({
          path: `/sites/settings/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "project-rename", name: f.a.name },
        }),
        // A refusal is said beside the form (403), so "deny" covers editors and developers.
        expect: MANAGERS,
      },
      {
        name: "POST delete A with a name that is not A's (refused beside the field)",
        fn: "action",
        request: (f) => ({
          path: `/sites/settings/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "project-delete", confirmName: "not the name" },
        }),
        // The owner and platform admins reach the name check (400); the rest are refused first.
        expect: { ...allow([]), owner: status(400), platformAdmin: status(400) },
      },
      {
        name: "POST transfer A to its admin member",
        fn: "action",
        request: (f) => ({
          path: `/sites/settings/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "project-transfer", toUserId: f.users.admin.id, confirm: "on" },
        }),
        expect: allow(["owner"]),
        // The fixture's owner must stay A's owner for the cases after this one.
        check: async (res, actor, f) => {
          if (actor !== "owner" || res.status >= 400) return;
          await db()
            .update(projects)
            .set({ ownerId: f.users.owner.id })
            .where(eq(projects.id, f.a.id));
          await db()
            .delete(members)
            .where(and(eq(members.projectId, f.a.id), eq(members.userId, f.users.owner.id)));
        },
      },
    ],
  },
  sectionRow("social-media"),
  {
    file: "_app.sites.user-settings.tsx",
    cases: [
      {
        name: "GET the signed-in user's settings",
        fn: "loader",
        request: () => ({ path: "/sites/user-settings" }),
        expect: SIGNED_IN,
      },
      {
        name: "POST save one's own name (unchanged)",
        fn: "action",
        request: (f, actor) => ({
          path: "/sites/user-settings",
          form: {
            intent: "account-name",
            name: actor === "anonymous" ? "Nobody" : f.users[actor].name,
          },
        }),
        expect: SIGNED_IN,
      },
    ],
  },
  {
    file: "_app.sites.user-settings_.two-factor.tsx",
    cases: [
      {
        name: "GET one's own second factors",
        fn: "loader",
        request: () => ({ path: "/sites/user-settings/two-factor" }),
        expect: SIGNED_IN,
      },
      {
        name: "POST start setting up an authenticator app",
        fn: "action",
        request: () => ({
          path: "/sites/user-settings/two-factor",
          form: { intent: "totp-start" },
        }),
        expect: SIGNED_IN,
      },
    ],
  },
  {
    file: "_app.sites.user-settings_.notifications.tsx",
    cases: [
      {
        name: "GET one's own notification settings",
        fn: "loader",
        request: () => ({ path: "/sites/user-settings/notifications" }),
        expect: SIGNED_IN,
      },
      {
        name: "POST save one's own notification settings",
        fn: "action",
        request: () => ({
          path: "/sites/user-settings/notifications",
          form: { intent: "notifications-save", owner: "deployment.failed" },
        }),
        expect: SIGNED_IN,
      },
    ],
  },
  {
    file: "_app.sites.user-settings_.tokens.tsx",
    cases: [
      {
        name: "GET one's own API tokens",
        fn: "loader",
        request: () => ({ path: "/sites/user-settings/tokens" }),
        expect: SIGNED_IN,
      },
      {
        name: "POST make a read token for oneself",
        fn: "action",
        request: () => ({
          path: "/sites/user-settings/tokens",
          form: { intent: "token-create", name: "Table", scope: "read", lifetimeDays: "7" },
        }),
        expect: SIGNED_IN,
      },
    ],
  },
  {
    ...sectionRow("website"),
    cases: [
      ...sectionRow("website").cases,
      {
        name: "POST Redeploy A",
        fn: "action",
        request: (f) => ({
          path: `/sites/website/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "site-redeploy" },
        }),
        // Not support (decision 011 as amended): publishing is the customer's team's.
        expect: {
          ...allow(["developer", "admin", "owner"]),
          editor: "refused",
          platformAdmin: "refused",
        },
      },
      {
        name: "POST Roll back A to its published deployment",
        fn: "action",
        setup: publishedDeployA,
        request: (f) => ({
          path: `/sites/website/${f.a.studioId}`,
          params: { studioId: f.a.studioId },
          form: { intent: "site-rollback", deployId: held.publishedDeployA },
        }),
        // Not support (decision 011 as amended): publishing is the customer's team's.
        expect: {
          ...allow(["developer", "admin", "owner"]),
          editor: "refused",
          platformAdmin: "refused",
        },
      },
    ],
  },
  {
    file: "dashboard.tsx",
    public: "an alias of /sites",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/dashboard" }),
        expect: everyone(status(302, "/sites")),
      },
    ],
  },
  {
    file: "pagebuilders.tsx",
    public: "an alias of /sites",
    cases: [
      {
        name: "GET",
        fn: "loader",
        request: () => ({ path: "/pagebuilders" }),
        expect: everyone(status(302, "/sites")),
      },
    ],
  },
];
