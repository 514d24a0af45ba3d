/**
 * A project's newsletter sender settings: read by everyone who sees the project, saved whole by
 * those who may edit (stored in the product's stored form), with an uploaded logo kept in the
 * database and served at /newsletter/logo/{studioId}. 'Send test e-mail' mails the header and
 * footer to the signed-in user through the app's mailer.
 */
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { newsletterSettings, projects } from "~/db/schema";
import type { User } from "~/services/accounts/index.server";
import { logEvent } from "~/services/activity/index.server";
import { absoluteUrl, dispatchMail, queueMail } from "~/services/core/index.server";
import { consume } from "~/services/core/index.server";
import {
  EMPTY_SETTINGS,
  senderDomainOf,
  type NewsletterSettingsInput,
  type NewsletterSettingsView,
} from "./newsletter.schema";
import { readableBrandText } from "./newsletter-rules";
import { can, projectForAction, withProjectAction } from "~/services/permissions/index.server";
import { listSavedTemplates, type SavedTemplate } from "./newsletter-templates.server";

/** The product's stored form of the settings (plus our own keys for the rest of the form). */
type StoredSettings = {
  email_from_name: string;
  email_from_address: string;
  reply_to: string;
  company: { name: string; address: string; website: string };
  social_media: { twitter: string; linkedin: string; facebook: string; instagram: string };
  email_footer: string;
  enable_unsubscribe_link: boolean;
  brand_color: string;
};

const str = (v: unknown) => (typeof v === "string" ? v : "");

function fromStored(
  stored: Record<string, unknown>,
  logoUrl: string | null,
): NewsletterSettingsView {
  const company = (stored.company ?? {}) as Record<string, unknown>;
  const social = (stored.social_media ?? {}) as Record<string, unknown>;
  return {
    fromName: str(stored.email_from_name) || EMPTY_SETTINGS.fromName,
    fromEmail: str(stored.email_from_address),
    replyToEmail: str(stored.reply_to),
    companyName: str(company.name),
    companyAddress: str(company.address),
    companyWebsite: str(company.website),
    footerText: str(stored.email_footer),
    enableUnsubscribeLink:
      typeof stored.enable_unsubscribe_link === "boolean"
        ? stored.enable_unsubscribe_link
        : EMPTY_SETTINGS.enableUnsubscribeLink,
    brandColor: str(stored.brand_color) || EMPTY_SETTINGS.brandColor,
    socialLinks: {
      facebook: str(social.facebook),
      twitter: str(social.twitter),
      instagram: str(social.instagram),
      linkedin: str(social.linkedin),
    },
    logoUrl,
  };
}

function toStored(input: NewsletterSettingsInput): StoredSettings {
  return {
    email_from_name: input.fromName,
    email_from_address: input.fromEmail,
    reply_to: input.replyToEmail,
    company: {
      name: input.companyName,
      address: input.companyAddress,
      website: input.companyWebsite,
    },
    social_media: {
      twitter: input.twitter,
      linkedin: input.linkedin,
      facebook: input.facebook,
      instagram: input.instagram,
    },
    email_footer: input.footerText,
    enable_unsubscribe_link: input.enableUnsubscribeLink,
    brand_color: input.brandColor,
  };
}

export const logoPath = (studioId: string) => `/newsletter/logo/${encodeURIComponent(studioId)}`;

/** The site's own host: the sender domain before a from-address is set. */
function siteHost(project: typeof projects.$inferSelect): string | null {
  const raw = project.siteCustomDomain ?? project.siteUrl;
  if (!raw) return null;
  try {
    return new URL(raw.includes("://") ? raw : `https://${raw}`).hostname;
  } catch {
    return null;
  }
}

export type NewsletterView = {
  projectId: string;
  studioId: string;
  projectName: string;
  settings: NewsletterSettingsView;
  /** Saved yet? A new project shows the defaults. */
  saved: boolean;
  senderDomain: string | null;
  canEdit: boolean;
};

export async function getNewsletterSettings(user: User, studioId: string): Promise<NewsletterView> {
  const { actor, project } = await projectForAction(user, studioId, "project.view");
  const [row] = await db()
    .select({
      settings: newsletterSettings.settings,
      hasLogo: newsletterSettings.logoType,
      updatedAt: newsletterSettings.updatedAt,
    })
    .from(newsletterSettings)
    .where(eq(newsletterSettings.projectId, project.id));
  const logoUrl = row?.hasLogo
    ? `${logoPath(project.studioId)}?v=${row.updatedAt.getTime()}`
    : null;
  const settings = row ? fromStored(row.settings, logoUrl) : { ...EMPTY_SETTINGS };
  return {
    projectId: project.id,
    studioId: project.studioId,
    projectName: project.name,
    settings,
    saved: Boolean(row),
    senderDomain: senderDomainOf(settings.fromEmail, siteHost(project)),
    canEdit: can(actor, "newsletter.edit"),
  };
}

/**
 * The Newsletter settings as the specification names them (GET /api/app/newsletter): the sender
 * settings, `logo` (the uploaded logo's absolute address, or null) and `savedTemplates`.
 */
export type NewsletterSettingsEntity = Omit<NewsletterSettingsView, "logoUrl"> & {
  logo: string | null;
  savedTemplates: SavedTemplate[];
};

export async function getNewsletterSettingsEntity(
  user: User,
  studioId: string,
): Promise<NewsletterSettingsEntity> {
  const view = await getNewsletterSettings(user, studioId);
  const { logoUrl, ...settings } = view.settings;
  return {
    ...settings,
    logo: logoUrl ? absoluteUrl(logoUrl) : null,
    savedTemplates: await listSavedTemplates(view.projectId),
  };
}

/**
 * Saves the settings whole, with the logo: a new upload replaces it, `removeLogo` drops it,
 * neither keeps it. The row and its Activity Log entry commit together.
 */
export async function saveNewsletterSettings(
  user: User,
  studioId: string,
  input: NewsletterSettingsInput,
): Promise<void> {
  const { project } = await projectForAction(user, studioId, "newsletter.edit", { mode: "check" });
  const logo = input.logo && input.logo.size > 0 ? input.logo : null;
  const bytes = logo ? Buffer.from(await logo.arrayBuffer()).toString("base64") : null;
  await withProjectAction(user, project.id, "newsletter.edit", async ({ tx }) => {
    const logoFields = logo
      ? { logo: bytes, logoType: logo.type }
      : input.removeLogo
        ? { logo: null, logoType: null }
        : {};
    await tx
      .insert(newsletterSettings)
      .values({
        projectId: project.id,
        settings: toStored(input),
        updatedBy: user.id,
        ...logoFields,
      })
      .onConflictDoUpdate({
        target: newsletterSettings.projectId,
        set: {
          settings: toStored(input),
          updatedBy: user.id,
          updatedAt: new Date(),
          ...logoFields,
        },
      });
    await logEvent(tx, {
      projectId: project.id,
      type: "newsletter.settings.saved",
      content: `${user.name || user.email} saved the newsletter settings`,
      actorId: user.id,
    });
  });
}

/** The logo of a project (public: mails show it to every subscriber), or null. */
export async function newsletterLogo(
  studioId: string,
): Promise<{ bytes: Buffer; type: string } | null> {
  const [row] = await db()
    .select({ logo: newsletterSettings.logo, type: newsletterSettings.logoType })
    .from(newsletterSettings)
    .innerJoin(projects, eq(projects.id, newsletterSettings.projectId))
    .where(eq(projects.studioId, studioId.slice(0, 100)));
  if (!row?.logo || !row.type) return null;
  return { bytes: Buffer.from(row.logo, "base64"), type: row.type };
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

/** The header and footer of the project's newsletters, as HTML and text (the test e-mail). */
export function renderNewsletterFrame(settings: NewsletterSettingsView, body: string) {
  const s = settings;
  const logo = s.logoUrl
    ? `<img src="${escapeHtml(absoluteUrl(s.logoUrl))}" alt="${escapeHtml(s.companyName || s.fromName)}" height="48">`
    : "";
  const socials = Object.entries(s.socialLinks)
    .filter(([, url]) => url)
    .map(([name, url]) => `<a href="${escapeHtml(url)}">${escapeHtml(name)}</a>`)
    .join(" · ");
  const company = [s.companyName, s.companyAddress].filter(Boolean).map(escapeHtml).join("<br>");
  const html = `<!doctype html><html><body style="margin:0;font-family:sans-serif">
<div style="border-top:6px solid ${s.brandColor};padding:16px">${logo}<h1 style="color:${readableBrandText(s.brandColor)};font-size:20px">${escapeHtml(s.fromName)}</h1></div>
<div style="padding:16px">${escapeHtml(body)}</div>
<div style="padding:16px;color:#555;font-size:12px">${company}${s.companyWebsite ? `<br><a href="${escapeHtml(s.companyWebsite)}">${escapeHtml(s.companyWebsite)}</a>` : ""}${socials ? `<p>${socials}</p>` : ""}${s.footerText ? `<p>${escapeHtml(s.footerText)}</p>` : ""}${s.enableUnsubscribeLink ? `<p><a href="#" style="color:${readableBrandText(s.brandColor)}">Unsubscribe</a></p>` : ""}</div>
</body></html>`;
  const text = [
    s.fromName,
    "",
    body,
    "",
    s.companyName,
    s.companyAddress,
    s.companyWebsite,
    ...Object.values(s.socialLinks).filter(Boolean),
    s.footerText,
    s.enableUnsubscribeLink ? "Unsubscribe: (link in each newsletter)" : "",
  ]
    .filter((line, i) => i < 4 || line)
    .join("\n");
  return { html, text };
}

/** 'Send test e-mail': the saved header and footer, to the signed-in user, through the outbox. */
export async function sendTestEmail(user: User, studioId: string): Promise<{ to: string }> {
  const view = await getNewsletterSettings(user, studioId);
  await consume("newsletterTest", user.id);
  const { html, text } = renderNewsletterFrame(
    view.settings,
    `This is a test of the newsletter of ${view.projectName}. Subscribers see this header and footer around each issue.`,
  );
  const id = await queueMail(db(), {
    to: user.email,
    subject: `Test: ${view.settings.fromName} (${view.projectName})`,
    text,
    html,
  });
  await dispatchMail([id]);
  return { to: user.email };
}
