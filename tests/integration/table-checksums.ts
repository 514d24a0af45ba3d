/**
 * "No row changed": a count and a checksum of every table, read before and after something that
 * must change nothing (the fuzz test's refused requests, the mailed links' GET and HEAD).
 */
import { database } from "~/db/client.server";

/** Not rows of the product: the rate limiter's counters (counting is its job) and migrations. */
const IGNORED_TABLES = new Set(["rate_limits", "__drizzle_migrations"]);

/**
 * Builds the one query that reads every public table's count and checksum, leaving out
 * `ignoredColumns` (by table), and with `jobs` pg-boss's jobs (their name and data) as well.
 */
export async function checksumQuery(
  ignoredColumns: Record<string, string[]>,
  { jobs = false } = {},
): Promise<string> {
  const { rows } = await database().raw(
    `select table_name, string_agg(quote_ident(column_name), ',' order by ordinal_position) as cols,
            string_agg(column_name, ',' order by ordinal_position) as names
       from information_schema.columns
      where table_schema = 'public'
      group by table_name order by table_name`,
  );
  const parts: string[] = [];
  for (const r of rows as { table_name: string; cols: string; names: string }[]) {
    if (IGNORED_TABLES.has(r.table_name)) continue;
    const ignored = ignoredColumns[r.table_name] ?? [];
    const names = r.names.split(",");
    const cols = r.cols.split(",").filter((_, i) => !ignored.includes(names[i]));
    const row = `md5(row(${cols.join(",")})::text)`;
    parts.push(
      `select '${r.table_name}' as t, count(*)::int as n, md5(coalesce(string_agg(${row}, '' order by ${row}), '')) as sum from public.${JSON.stringify(r.table_name)}`,
    );
  }
  if (jobs) {
    parts.push(
      `select 'pgboss.job' as t, count(*)::int as n, md5(coalesce(string_agg(md5(row(name, data)::text), '' order by md5(row(name, data)::text)), '')) as sum from pgboss.job where name not like '\\_\\_pgboss%'`,
    );
  }
  return parts.join(" union all ");
}

/** Each table's "count:checksum", by name, through a query from checksumQuery. */
export async function readChecksums(query: string): Promise<Map<string, string>> {
  const { rows } = await database().raw(query);
  return new Map(
    (rows as { t: string; n: number; sum: string }[]).map((r) => [r.t, `${r.n}:${r.sum}`]),
  );
}

/** The tables whose count or checksum differ between two reads. */
export function changedTables(before: Map<string, string>, after: Map<string, string>) {
  return [...after.keys()].filter((t) => before.get(t) !== after.get(t));
}
