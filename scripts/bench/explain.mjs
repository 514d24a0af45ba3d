// The SQL side of `npm run bench` (./index.mjs): EXPLAIN ANALYZE of the queries behind the
// measured pages, on the seeded data, with the time and the scans of each plan.

/**
 * EXPLAIN ANALYZE of the queries behind the measured pages, written as the services build them
 * (app/services/projects/projects.server.ts listProjects and its viewableRows,
 * members.server.ts listMembers, activity-log.server.ts listActivity). Each runs three times;
 * the last run's execution time is kept (warm cache, as a page sees it).
 * @param {import("pg").Client} client
 * @param {{ owner: string; member: string; big: string }} ids the seeded owner, member, project
 * @returns {Promise<Record<string, { ms: number; plan: string }>>}
 */
export async function explainQueries(client, ids) {
  // The union listProjects runs: owned rows and accepted memberships, each cut, then merged.
  const list = (/** @type {string} */ user, extra = "") => `select * from (
    (select p.id, p.name, p.created_at from projects p
      where p.owner_id >= '${user}' and p.owner_id <= '${user}' ${extra}
      order by p.owner_id desc, p.created_at desc, p.id desc limit 21)
    union all
    (select p.id, p.name, p.created_at from projects p join members m on m.project_id = p.id
      and m.user_id >= '${user}' and m.user_id <= '${user}' and m.status = 'accepted'
      where p.owner_id <> '${user}' ${extra}
      order by m.user_id desc, p.created_at desc, p.id desc limit 21)) v
    order by created_at desc, id desc limit 21`;
  const queries = {
    "list page 1 (owner of many)": list(ids.owner),
    "list page 1 (member of 300)": list(ids.member),
    "search 'project 99' (owner of many)": list(ids.owner, `and lower(p.name) like '%project 99%'`),
    "search 'zz' (no match, 2 letters)": list(ids.owner, `and lower(p.name) like '%zz%'`),
    "all projects search 'project 99' (platform admin)": `select p.id from projects p
      where lower(p.name) like '%project 99%' order by p.created_at desc, p.id desc limit 21`,
    "dashboard members (50)": `select * from members m left join users u on u.id = m.user_id
      where m.project_id = '${ids.big}' order by m.created_at, m.id`,
    "dashboard activity (3 latest of 5,000)": `select * from event_logs
      where project_id = '${ids.big}' and type not in ('sites.create')
      order by timestamp desc, key desc limit 3`,
    "dashboard activity count": `select count(*) from event_logs
      where project_id = '${ids.big}' and type not in ('sites.create')`,
  };
  /** @type {Record<string, { ms: number; plan: string }>} */
  const out = {};
  for (const [label, sql] of Object.entries(queries)) {
    /** @type {string[]} */
    let plan = [];
    for (let i = 0; i < 3; i += 1) {
      plan = (await client.query(`explain (analyze, format text) ${sql}`)).rows.map(
        (/** @type {{ "QUERY PLAN": string }} */ r) => r["QUERY PLAN"],
      );
    }
    const time = plan.find((l) => l.startsWith("Execution Time"))?.match(/[\d.]+/)?.[0];
    // The scans of the plan, in order (a union has one per part).
    const scans = plan.filter((l) => /Index|Seq Scan|Bitmap Heap/.test(l)).map((l) => l.trim());
    const top = scans.length ? scans.slice(0, 3).join("; ") : plan[0].trim();
    out[label] = { ms: Number(time), plan: top.replace(/\s+\(cost=[^;]*/g, "") };
  }
  return out;
}
