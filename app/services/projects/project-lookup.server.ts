/**
 * The one lookup of a project reference: a project row by its _id or studioId (what routes and
 * API bodies carry), undefined when there is none. Permissions resolve every project action
 * through it; page views read it once however many loaders ask.
 */
import { eq, getTableColumns, or, sql, type SQL } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import { db, type Queryable } from "~/db/client.server";
import { prepared } from "~/db/prepared.server";
import { projects } from "~/db/schema";
import { memo, rememberInView } from "~/utils/request-memo.server";
import type { User } from "~/services/accounts/index.server";
import { UUID } from "~/utils/uuid";

/**
 * A project reference's lookup as prepared statements, selecting `columns`: by _id or studioId
 * when the key is UUID-shaped, else by studioId (see projectLookup). `name` names the statements.
 */
export function preparedProjectLookup<T extends SelectedFields>(columns: T, name: string) {
  // Built on the plain selection type (drizzle's builder does not narrow a generic one); the
  // rows are typed from `columns` again below.
  const statement = (where: SQL | undefined, suffix: string) =>
    prepared((database) =>
      database
        .select(columns as SelectedFields)
        .from(projects)
        .where(where)
        .limit(1)
        .prepare(`${name}_${suffix}`),
    );
  const byStudioId = statement(eq(projects.studioId, sql.placeholder("studioId")), "by_studio_id");
  const byIdOrStudioId = statement(
    or(eq(projects.id, sql.placeholder("id")), eq(projects.studioId, sql.placeholder("studioId"))),
    "by_id_or_studio_id",
  );
  return async (lookup: { id: string | null; studioId: string }) =>
    (lookup.id !== null
      ? await byIdOrStudioId().execute(lookup)
      : await byStudioId().execute({ studioId: lookup.studioId })) as SelectResultFields<T>[];
}

const projectRowOf = preparedProjectLookup(getTableColumns(projects), "project");

/**
 * How a reference is looked up: only a UUID-shaped key can be an _id (comparing other text to a
 * uuid column would error); null for a key that names no project.
 */
export function projectLookup(
  ref: string,
): { id: string; studioId: string } | { id: null; studioId: string } | null {
  const key = ref.trim();
  if (!key || key.length > 100) return null;
  return { id: UUID.test(key) ? key.toLowerCase() : null, studioId: key };
}

export async function findProjectRow(
  tx: Queryable,
  ref: string,
): Promise<typeof projects.$inferSelect | undefined> {
  const lookup = projectLookup(ref);
  if (!lookup) return undefined;
  // Outside a transaction (every page view) through prepared statements.
  if (tx === db()) {
    const [row] = await projectRowOf(lookup);
    return row;
  }
  const where =
    lookup.id !== null
      ? or(eq(projects.id, lookup.id), eq(projects.studioId, lookup.studioId))
      : eq(projects.studioId, lookup.studioId);
  const [row] = await tx.select().from(projects).where(where).limit(1);
  return row;
}

/**
 * `findProjectRow` for `user`'s page view: one read however many loaders of the view ask
 * (app/utils/request-memo.server.ts). Inside a transaction it always reads.
 */
export function projectRowFor(user: User | null, ref: string, tx: Queryable = db()) {
  if (tx !== db()) return findProjectRow(tx, ref);
  return memo(`project-row:${user?.id}:${ref}`, () => findProjectRow(tx, ref));
}

/** The row of `ref` for `user`'s view, read by a wider query: the view's lookups use it. */
export function rememberProjectRow(
  user: User,
  ref: string,
  row: Promise<typeof projects.$inferSelect | undefined>,
) {
  rememberInView(`project-row:${user.id}:${ref}`, row);
}
