// The crash soak's check (scripts/soak/crash.mjs), once the queue has settled and the servers
// stopped: reads the run's database and counts as lost every acknowledged write that is not there
// and every mail, studio invitation or webhook delivery not made, as duplicated anything made
// twice, and runs amcheck on the indexes. The figures it reads go to the run's record.
import { ROLLING } from "./crash-options.mjs";
import { FINAL, UNFINISHED_JOBS } from "./crash-settle.mjs";
import { checkWebhookDeliveries } from "./webhooks.mjs";
import { openDirect } from "./lib.mjs";

/**
 * @typedef {import("./crash-state.mjs").Shared} Shared
 * @typedef {import("./crash-state.mjs").Person} Person
 * @typedef {import("./lib.mjs").SoakDatabase} SoakDatabase
 */

/**
 * @param {SoakDatabase} database
 * @param {Shared} shared
 * @param {{ owners: Person[] }} people
 * @param {Map<string, number>} printed the mails the servers printed, by (to, subject)
 * @param {Map<string, number>} webhookArrivals what the webhook endpoint received
 */
export async function check(database, shared, people, printed, webhookArrivals) {
  const { result } = shared;
  const direct = await openDirect(database);
  const lost = (/** @type {string} */ what) => void result.lost.push(what);
  const duplicate = (/** @type {string} */ what) => void result.duplicates.push(what);
  try {
    const projects = await direct.query(
      `select p.id, p.name, p.owner_id, p.studio_sanity_id, p.site_creation_status as site,
              p.studio_creation_status as studio,
              (select count(*)::int from local_studios s where s.idempotency_key = p.id || ':studio') as studios,
              (select count(*)::int from local_sites s where s.idempotency_key like p.id || ':%') as sites,
              (select count(*)::int from project_sites s where s.project_id = p.id) as project_sites,
              (select count(*)::int from local_deploys d where d.trigger_key = p.id || ':initial') as initial,
              (select count(*)::int from local_deploys d where d.trigger_key = p.id || ':auto') as auto,
              (select count(*)::int from event_logs e where e.project_id = p.id and e.type = 'sites.create') as created_events
       from projects p`,
    );
    const byId = new Map(projects.map((p) => [p.id, p]));
    let found = 0;
    let final = 0;
    let success = 0;
    let autoDeploys = 0;
    for (const acked of shared.projects) {
      const p = byId.get(acked.id);
      if (!p) {
        lost(`project ${acked.name}`);
        continue;
      }
      found += 1;
      if (FINAL.has(p.site)) final += 1;
      else lost(`project ${p.name} not final (site ${p.site}, studio ${p.studio})`);
      if (p.site === "success" && p.studio === "success") success += 1;
      else if (FINAL.has(p.site)) lost(`project ${p.name} ended ${p.site} (studio ${p.studio})`);
    }
    for (const p of projects) {
      autoDeploys += p.auto;
      if (p.studios > 1) duplicate(`${p.studios} studios for ${p.name}`);
      if (p.sites > 1) duplicate(`${p.sites} sites for ${p.name}`);
      if (p.project_sites > 1) duplicate(`${p.project_sites} project_sites rows for ${p.name}`);
      if (p.initial > 1) duplicate(`${p.initial} first deployments for ${p.name}`);
      if (p.auto > 1) duplicate(`${p.auto} automatic deployments for ${p.name}`);
      if (p.created_events !== 1) duplicate(`${p.created_events} creation events for ${p.name}`);
      if (p.site === "success" && p.initial + p.auto === 0) lost(`no deployment for ${p.name}`);
      if (p.site === "success" && (p.studios !== 1 || p.sites !== 1)) {
        lost(`${p.name} is live without its studio or site`);
      }
    }
    const names = new Map();
    for (const p of projects)
      names.set(`${p.owner_id} ${p.name}`, (names.get(`${p.owner_id} ${p.name}`) ?? 0) + 1);
    for (const [name, n] of names) if (n > 1) duplicate(`${n} projects named ${name}`);

    // Members: acknowledged invitations and acceptances.
    const members = await direct.query(
      `select m.project_id, m.invited_email, m.status, count(*) over (partition by m.project_id, m.invited_email)::int as n
       from members m`,
    );
    const member = new Map(members.map((m) => [`${m.project_id} ${m.invited_email}`, m]));
    for (const m of members) if (m.n > 1) duplicate(`${m.n} member rows for ${m.invited_email}`);
    for (const inv of shared.invitations) {
      if (member.has(`${inv.project.id} ${inv.email}`)) found += 1;
      else lost(`invitation of ${inv.email} to ${inv.project.name}`);
    }
    for (const acc of shared.acceptances) {
      if (member.get(`${acc.project.id} ${acc.email}`)?.status === "accepted") found += 1;
      else lost(`acceptance of ${acc.email} in ${acc.project.name}`);
    }

    // Invitation mails: one per invitation sent (the activity log's members.invitation.sent,
    // which a resend writes too), each delivered; studio invitation mails: one per studio
    // invitation; studio invitations: one per owner and accepted member, sent once.
    const sent = await direct.query(
      `select p.name, e.metadata->>'email' as email, count(*)::int as n
       from event_logs e join projects p on p.id = e.project_id
       where e.type = 'members.invitation.sent' group by p.name, e.metadata->>'email'`,
    );
    const mails = await direct.query(
      `select "to", subject, status, count(*)::int as n from outbox group by "to", subject, status`,
    );
    const mailCount = new Map();
    for (const m of mails) {
      if (m.status !== "kept" && m.status !== "sent") {
        lost(`${m.n} mail(s) to ${m.to} left ${m.status}: "${m.subject}"`);
      }
      const key = `${m.to}\n${m.subject}`;
      mailCount.set(key, (mailCount.get(key) ?? 0) + m.n);
    }
    // Counted per recipient: a mail to an address nobody proved names no project (decision 028),
    // so its subject cannot say which of the address's invitations it carries.
    const invitedTimes = new Map();
    for (const s of sent) invitedTimes.set(s.email, (invitedTimes.get(s.email) ?? 0) + s.n);
    const invitationMails = new Map();
    for (const [key, n] of mailCount) {
      const [to, subject] = key.split("\n");
      if (subject.startsWith("You are invited to collaborate on ")) {
        invitationMails.set(to, (invitationMails.get(to) ?? 0) + n);
      }
    }
    for (const [email, expected] of invitedTimes) {
      const n = invitationMails.get(email) ?? 0;
      if (n > expected) duplicate(`${n} invitation mails for ${expected} invitations of ${email}`);
      if (n < expected) lost(`${expected - n} invitation mail(s) to ${email}`);
    }
    const invites = await direct.query(
      `select p.name, p.owner_id, i.email, i.sent_count, u.id as user_id
       from local_studio_invites i
       join projects p on p.studio_sanity_id = i.studio_id
       left join users u on u.email = i.email`,
    );
    const studioInvite = new Map(invites.map((i) => [`${i.name} ${i.email}`, i]));
    let studioMails = 0;
    for (const i of invites) {
      if (i.sent_count > 1)
        duplicate(`${i.sent_count} studio invitations of ${i.email} to ${i.name}`);
      const n = mailCount.get(`${i.email}\nYou are invited to the content studio ${i.name}`) ?? 0;
      studioMails += n;
      if (n > i.sent_count) duplicate(`${n} studio invitation mails to ${i.email} for ${i.name}`);
      if (n < i.sent_count) lost(`studio invitation mail to ${i.email} for ${i.name}`);
    }
    const ownerEmail = new Map([...people.owners].map((o) => [o.id, o.email]));
    for (const p of projects) {
      if (p.studio !== "success") continue;
      const email = ownerEmail.get(p.owner_id);
      if (email && !studioInvite.has(`${p.name} ${email}`))
        lost(`owner's studio invitation for ${p.name}`);
    }
    const accepted = await direct.query(
      `select p.name, m.invited_email from members m join projects p on p.id = m.project_id
       where m.status = 'accepted'`,
    );
    for (const a of accepted) {
      if (!studioInvite.has(`${a.name} ${a.invited_email}`)) {
        lost(`studio invitation of accepted member ${a.invited_email} to ${a.name}`);
      }
    }

    // Mail jobs: one per outbox row. Printed deliveries beyond the rows: a server killed between
    // printing a mail and recording it delivered prints it again (at-least-once delivery).
    const mailJobs = await direct.query(
      `select data->>'id' as id, count(*)::int as n from pgboss.job where name = 'mail.send'
       group by data->>'id' having count(*) > 1`,
    );
    for (const j of mailJobs) duplicate(`${j.n} mail jobs for outbox row ${j.id}`);
    let redelivered = 0;
    for (const [key, n] of printed) redelivered += Math.max(0, n - (mailCount.get(key) ?? 0));

    // Webhooks: the acknowledged ones exist; every delivery made once and received.
    const hooks = new Set((await direct.query(`select id from webhooks`)).map((w) => w.id));
    for (const hook of shared.webhooks) {
      if (hooks.has(hook.id)) found += 1;
      else lost(`webhook of ${hook.project.name}`);
    }
    result.webhooks = await checkWebhookDeliveries(direct, webhookArrivals, { lost, duplicate });
    // A restart that finishes its work first sends nothing twice.
    if (ROLLING && result.webhooks.repeated > 0) {
      duplicate(`${result.webhooks.repeated} webhook deliveries sent twice`);
    }

    // The queue: nothing unfinished; nothing failed for good (the sweep does not retry: the
    // next one runs anyway).
    for (const j of await direct.query(UNFINISHED_JOBS, [shared.stoppedAt])) {
      lost(`${j.n} ${j.name} job(s) still ${j.state}`);
    }
    const failed = await direct.query(
      `select name, count(*)::int as n from pgboss.job where state = 'failed' and name <> 'project.sweep'
       group by name`,
    );
    for (const j of failed) lost(`${j.n} ${j.name} job(s) failed`);

    // The data directory (or database) itself: every index agrees with its table.
    const corrupt = await amcheck(direct);
    for (const problem of corrupt) result.problems.push(problem);

    result.found = found;
    result.final = final;
    result.success = success;
    result.autoDeploys = autoDeploys;
    result.mails = [...mailCount.values()].reduce((a, b) => a + b, 0);
    result.studioMails = studioMails;
    result.redelivered = redelivered;
    // A restart that finishes its work first delivers nothing twice.
    if (ROLLING && redelivered > 0) duplicate(`${redelivered} mail(s) printed twice`);
    result.acceptedUnacked = shared.acceptedUnacked;
  } finally {
    await direct.close();
  }
}

/**
 * bt_index_check on every index of the app's tables; the problems it finds.
 * @param {import("./lib.mjs").Direct} direct
 */
async function amcheck(direct) {
  try {
    await direct.exec("create extension if not exists amcheck");
  } catch (error) {
    return [`amcheck unavailable: ${error.message}`];
  }
  const indexes = await direct.query(
    `select c.oid::int as oid, n.nspname || '.' || c.relname as name
     from pg_index i join pg_class c on c.oid = i.indexrelid
     join pg_am a on a.oid = c.relam join pg_namespace n on n.oid = c.relnamespace
     where a.amname = 'btree' and n.nspname in ('public', 'pgboss') and c.relkind = 'i'`,
  );
  const problems = [];
  for (const { oid, name } of indexes) {
    try {
      await direct.query(`select bt_index_check($1::int::oid::regclass, true)`, [oid]);
    } catch (error) {
      problems.push(`index ${name}: ${error.message}`);
    }
  }
  return problems;
}
