// Seeds the benchmark's data set with bulk SQL against the app's own (migrated) schema.
import { hash } from "@node-rs/argon2";

export const PASSWORD = "benchmark password";

/**
 * @param {import("pg").Client} client
 * @param {{ projects: number }} size
 */
export async function seed(client, { projects }) {
  const scale = projects / 100_000;
  const users = Math.max(200, Math.round(20_000 * scale));
  const ownerShare = Math.round(25_000 * scale);
  const memberships = Math.round(300_000 * scale);
  const events = Math.round(1_000_000 * scale);
  const passwordHash = await hash(PASSWORD, {
    algorithm: 2,
    memoryCost: 19456,
    timeCost: 2,
    parallelism: 1,
  });
  const started = Date.now();
  await client.query("begin");
  await client.query(
    `insert into users (name, email, password_hash, email_verified_at)
     select 'Bench user ' || i, 'user' || i || '@bench.example', $1, now()
     from generate_series(1, $2) i`,
    [passwordHash, users],
  );
  await client.query(
    `insert into users (name, email, password_hash, email_verified_at) values
     ('Bench Owner', 'owner@bench.example', $1, now()),
     ('Bench Member', 'member@bench.example', $1, now())`,
    [passwordHash],
  );
  // user1..userN in id order for the modulo picks below.
  await client.query(`create temp table bench_users as
    select row_number() over (order by email) as n, id, email from users where email like 'user%@bench.example'`);
  const {
    rows: [owner],
  } = await client.query(`select id from users where email = 'owner@bench.example'`);
  const {
    rows: [member],
  } = await client.query(`select id from users where email = 'member@bench.example'`);
  await client.query(
    `insert into projects (studio_id, name, owner_id, idempotency_key, site_type,
       studio_creation_status, site_creation_status, site_id, site_url, schema_version, created_at, updated_at)
     select 'bench' || i, 'project ' || i,
       case when i <= $2 then $3::uuid else (select id from bench_users where n = 1 + (i % $4)) end,
       'bench-key-' || i, 'business', 'success', 'success', 'site-' || i,
       'https://project-' || i || '.example.net', 3,
       now() - (($1 - i) * interval '1 minute'), now()
     from generate_series(1, $1) i`,
    [projects, ownerShare, owner.id, users],
  );
  await client.query(`create temp table bench_projects as
    select row_number() over (order by created_at) as n, id from projects where studio_id like 'bench%'`);
  await client.query(
    `insert into members (project_id, user_id, invited_email, role, status)
     select p.id, u.id, u.email, 'editor', 'accepted'
     from generate_series(1, $1) i
     join bench_projects p on p.n = 1 + ((i::bigint * 7919) % $2)
     join bench_users u on u.n = 1 + ((i::bigint * 104729) % $3)
     on conflict do nothing`,
    [memberships, projects, users],
  );
  // One user who is a member of 300 projects among all the others.
  await client.query(
    `insert into members (project_id, user_id, invited_email, role, status)
     select p.id, $1, 'member@bench.example', 'editor', 'accepted'
     from bench_projects p where p.n % ($2 / 300) = 0 limit 300
     on conflict do nothing`,
    [member.id, projects],
  );
  // The dashboard's project: the owner's newest, with 50 members and 5,000 events.
  const {
    rows: [big],
  } = await client.query(
    `select id, studio_id from projects where owner_id = $1 order by created_at desc limit 1`,
    [owner.id],
  );
  await client.query(`delete from members where project_id = $1`, [big.id]);
  await client.query(
    `insert into members (project_id, user_id, invited_email, role, status)
     select $1, u.id, u.email, 'editor', 'accepted' from bench_users u where u.n <= 50`,
    [big.id],
  );
  await client.query(
    `insert into event_logs (project_id, type, content, timestamp)
     select $1, 'members.invited', 'Event ' || i, now() - i * interval '1 second'
     from generate_series(1, 5000) i`,
    [big.id],
  );
  // Its site at the local hosting provider, with 40 deployments, so Site Builds shows a real
  // list (a missing site would measure the error path and its log lines instead).
  await client.query(
    `insert into local_sites (id, provider, name, idempotency_key, published_deploy_id)
     select site_id, 'netlify', name, 'bench-site-' || studio_id, site_id || '-deploy-40'
     from projects where id = $1`,
    [big.id],
  );
  await client.query(
    `insert into local_deploys (id, site_id, state, title, created_at)
     select p.site_id || '-deploy-' || i, p.site_id, 'ready', 'Deploy ' || i,
       now() - (40 - i) * interval '1 hour'
     from projects p, generate_series(1, 40) i where p.id = $1`,
    [big.id],
  );
  await client.query(
    `insert into project_sites (project_id, provider, site_id, url)
     select id, 'netlify', site_id, site_url from projects where id = $1`,
    [big.id],
  );
  // Page views at the cap of distinct pages and referrers on each of the last 90 days: the most
  // rows the Analytics page of a 90-day period can read.
  await client.query(
    `insert into analytics_page_days (project_id, day, path, views)
     select $1, current_date - d, '/page-' || i, 1 + (i * d) % 97
     from generate_series(0, 89) d, generate_series(1, 500) i`,
    [big.id],
  );
  await client.query(
    `insert into analytics_referrer_days (project_id, day, referrer, views)
     select $1, current_date - d, 'site-' || i || '.example', 1 + (i + d) % 13
     from generate_series(0, 89) d, generate_series(1, 200) i`,
    [big.id],
  );
  await client.query(
    `insert into event_logs (project_id, type, content, timestamp)
     select p.id, 'members.invited', 'Event ' || i, now() - i * interval '1 second'
     from generate_series(1, $1) i join bench_projects p on p.n = 1 + ((i::bigint * 31) % $2)`,
    [events, projects],
  );
  await client.query("commit");
  await client.query("analyze");
  return {
    seconds: (Date.now() - started) / 1000,
    users: users + 2,
    projects,
    memberships,
    events: events + 5000,
    bigProject: big.studio_id,
  };
}
