/**
 * The newsletter's saved e-mail templates (savedTemplates, decision 045): named subjects and
 * bodies a newsletter can start from. Everyone who sees the project reads them; those who may
 * change the newsletter settings save, rename and delete them. Each change and its Activity Log
 * entry commit together, under the project's row lock, so the name check and the count cannot
 * be passed by two saves at once.
 */
import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { db, type Queryable, type Tx } from "~/db/client.server";
import { newsletterSavedTemplates, projects } from "~/db/schema";
import type { User } from "~/services/accounts/index.server";
import { logEvent } from "~/services/activity/index.server";
import { ConflictError, NotFoundError } from "~/services/core";
import {
  MAX_SAVED_TEMPLATES,
  TEMPLATE_MESSAGES,
  type SaveTemplateInput,
} from "./newsletter-templates.schema";
import { can, projectForAction, withProjectAction } from "~/services/permissions/index.server";

export type SavedTemplate = {
  id: string;
  name: string;
  subject: string;
  body: string;
  createdAt: string;
  updatedAt: string;
};

/** Another template of the project has this name, whatever its case (409, beside the name). */
export class TemplateNameTakenError extends ConflictError {
  readonly field = "name";
  constructor() {
    super(TEMPLATE_MESSAGES.nameTaken);
  }
}

/** The project keeps MAX_SAVED_TEMPLATES already (409). */
export class TemplateLimitError extends ConflictError {
  constructor() {
    super(TEMPLATE_MESSAGES.limit);
  }
}

type Row = typeof newsletterSavedTemplates.$inferSelect;

const toTemplate = (row: Row): SavedTemplate => ({
  id: row.id,
  name: row.name,
  subject: row.subject,
  body: row.body,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * A project's templates by name (no permission check: for answers that have checked already,
 * such as the project's own pages and the API's newsletter settings).
 */
export async function listSavedTemplates(
  projectId: string,
  q: Queryable = db(),
): Promise<SavedTemplate[]> {
  const rows = await q
    .select()
    .from(newsletterSavedTemplates)
    .where(eq(newsletterSavedTemplates.projectId, projectId))
    .orderBy(asc(sql`lower(${newsletterSavedTemplates.name})`), asc(newsletterSavedTemplates.id));
  return rows.map(toTemplate);
}

/** The templates of a project the user sees, and whether they may change them. */
export async function getSavedTemplates(
  user: User,
  studioId: string,
): Promise<{ templates: SavedTemplate[]; canEdit: boolean }> {
  const { project, actor } = await projectForAction(user, studioId, "project.view");
  return {
    templates: await listSavedTemplates(project.id),
    canEdit: can(actor, "newsletter.edit"),
  };
}

async function lockProject(tx: Tx, projectId: string) {
  await tx
    .select({ id: projects.id })
    .from(projects)
    .where(eq(projects.id, projectId))
    .for("update");
}

async function assertNameFree(tx: Tx, projectId: string, name: string, except?: string) {
  const [taken] = await tx
    .select({ id: newsletterSavedTemplates.id })
    .from(newsletterSavedTemplates)
    .where(
      and(
        eq(newsletterSavedTemplates.projectId, projectId),
        eq(sql`lower(${newsletterSavedTemplates.name})`, name.toLowerCase()),
        except ? ne(newsletterSavedTemplates.id, except) : undefined,
      ),
    );
  if (taken) throw new TemplateNameTakenError();
}

/** Saves a new template (the name free in the project, below the cap). */
export async function saveTemplate(
  user: User,
  studioId: string,
  input: SaveTemplateInput,
): Promise<SavedTemplate> {
  return withProjectAction(user, studioId, "newsletter.edit", async ({ project, tx }) => {
    await lockProject(tx, project.id);
    await assertNameFree(tx, project.id, input.name);
    const [{ n }] = await tx
      .select({ n: count() })
      .from(newsletterSavedTemplates)
      .where(eq(newsletterSavedTemplates.projectId, project.id));
    if (n >= MAX_SAVED_TEMPLATES) throw new TemplateLimitError();
    const [row] = await tx
      .insert(newsletterSavedTemplates)
      .values({ projectId: project.id, ...input })
      .returning();
    await logEvent(tx, {
      projectId: project.id,
      type: "newsletter.template.saved",
      content: `${user.name || user.email} saved the newsletter template ${row.name}`,
      actorId: user.id,
    });
    return toTemplate(row);
  });
}

const isUuid = (value: string) => z.uuid().safeParse(value).success;

/**
 * The project of a template (its id), for the API's calls that name only the template; null
 * when there is none (an id that is no uuid included, so the database never sees it).
 */
async function projectOfTemplate(templateId: string): Promise<string | null> {
  if (!isUuid(templateId)) return null;
  const [row] = await db()
    .select({ projectId: newsletterSavedTemplates.projectId })
    .from(newsletterSavedTemplates)
    .where(eq(newsletterSavedTemplates.id, templateId));
  return row?.projectId ?? null;
}

/**
 * Runs `change` on the template under the project's lock: a template of another project, or of
 * none, is 'Template not found' (404); a project hidden from the user is its 404 as well.
 * `projectRef` is the page's project; the API passes none and the template's own is used.
 */
async function withTemplate<T>(
  user: User,
  templateId: string,
  projectRef: string | undefined,
  change: (on: { tx: Tx; projectId: string; row: Row }) => Promise<T>,
): Promise<T> {
  const ref = projectRef ?? (await projectOfTemplate(templateId));
  if (!ref || !isUuid(templateId)) throw new NotFoundError(TEMPLATE_MESSAGES.notFound);
  return withProjectAction(user, ref, "newsletter.edit", async ({ project, tx }) => {
    await lockProject(tx, project.id);
    const [row] = await tx
      .select()
      .from(newsletterSavedTemplates)
      .where(
        and(
          eq(newsletterSavedTemplates.id, templateId),
          eq(newsletterSavedTemplates.projectId, project.id),
        ),
      );
    if (!row) throw new NotFoundError(TEMPLATE_MESSAGES.notFound);
    return change({ tx, projectId: project.id, row });
  });
}

/** Renames a template (the new name free in the project; the same name is no change). */
export async function renameTemplate(
  user: User,
  templateId: string,
  name: string,
  projectRef?: string,
): Promise<SavedTemplate> {
  return withTemplate(user, templateId, projectRef, async ({ tx, projectId, row }) => {
    if (row.name === name) return toTemplate(row);
    await assertNameFree(tx, projectId, name, row.id);
    const [renamed] = await tx
      .update(newsletterSavedTemplates)
      .set({ name, updatedAt: new Date() })
      .where(eq(newsletterSavedTemplates.id, row.id))
      .returning();
    await logEvent(tx, {
      projectId,
      type: "newsletter.template.renamed",
      content: `${user.name || user.email} renamed the newsletter template ${row.name} to ${name}`,
      actorId: user.id,
    });
    return toTemplate(renamed);
  });
}

/** Deletes a template. */
export async function deleteTemplate(
  user: User,
  templateId: string,
  projectRef?: string,
): Promise<{ name: string }> {
  return withTemplate(user, templateId, projectRef, async ({ tx, projectId, row }) => {
    await tx.delete(newsletterSavedTemplates).where(eq(newsletterSavedTemplates.id, row.id));
    await logEvent(tx, {
      projectId,
      type: "newsletter.template.deleted",
      content: `${user.name || user.email} deleted the newsletter template ${row.name}`,
      actorId: user.id,
    });
    return { name: row.name };
  });
}
