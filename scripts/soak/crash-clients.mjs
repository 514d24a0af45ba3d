// The crash soak's load (scripts/soak/crash.mjs): the accounts it uses, written directly into
// the run's database, and one client per owner that creates projects, adds a webhook to each,
// invites members and guests and accepts the invitations through the JSON API, recording every
// write that got a 2xx answer in the run's shared state (the check looks for each of them).
import { hash } from "@node-rs/argon2";
import { CLIENTS, PROJECTS, random } from "./crash-options.mjs";
import { retry } from "./crash-servers.mjs";
import { Fatal } from "./crash-state.mjs";
import { SOAK_WEBHOOK_EVENTS } from "./webhooks.mjs";
import { api, logIn, openDirect, sleep } from "./lib.mjs";

/**
 * @typedef {import("./crash-state.mjs").Shared} Shared
 * @typedef {import("./crash-state.mjs").Person} Person
 * @typedef {import("./crash-state.mjs").Project} Project
 * @typedef {import("./crash-state.mjs").Pending} Pending
 */

const PASSWORD = "soak password 0123";
/** People with accounts whom the owners invite (each project invites two of them). */
const INVITEES = 4;

/**
 * The owners (one per client) and the invitees, with their accounts made in the database (after
 * the app's migrations, which the first server would otherwise apply).
 * @param {import("./lib.mjs").SoakDatabase} database
 * @param {string} runId
 * @returns {Promise<{ owners: Person[], invitees: Person[] }>}
 */
export async function seedAccounts(database, runId) {
  const passwordHash = await hash(PASSWORD, {
    algorithm: 2,
    memoryCost: 19456,
    timeCost: 2,
    parallelism: 1,
  });
  /** @type {Person[]} */
  const owners = Array.from({ length: CLIENTS }, (_, i) => ({
    email: `owner${i}-${runId}@soak.example`,
    name: `Soak owner ${i}`,
  }));
  /** @type {Person[]} */
  const invitees = Array.from({ length: INVITEES }, (_, i) => ({
    email: `member${i}-${runId}@soak.example`,
    name: `Soak member ${i}`,
  }));
  const direct = await openDirect(database);
  try {
    await direct.migrate();
    for (const person of [...owners, ...invitees]) {
      const [row] = await direct.query(
        `insert into users (name, email, password_hash, email_verified_at)
         values ($1, $2, $3, now()) returning id`,
        [person.name, person.email, passwordHash],
      );
      person.id = row.id;
    }
  } finally {
    await direct.close();
  }
  return { owners, invitees };
}

/**
 * Signs everyone in through the servers (retried as any request): their session cookies.
 * @param {Shared} shared
 * @param {Person[]} people
 */
export async function signIn(shared, people) {
  for (const person of people) {
    person.cookie = await retry(shared, 0, (base) => logIn(base, person.email, PASSWORD));
  }
}

/** One owner's client: creates projects, adds webhooks, invites and accepts. */
export class Client {
  /**
   * @param {number} index
   * @param {Person} owner
   * @param {Person[]} invitees
   * @param {Shared} shared
   */
  constructor(index, owner, invitees, shared) {
    this.index = index;
    this.owner = owner;
    this.invitees = invitees;
    this.shared = shared;
    /** @type {Project[]} */
    this.mine = [];
    /** Invitations to accept once the project's studio is ready. @type {Pending[]} */
    this.pending = [];
    this.made = 0;
  }

  /**
   * @template T
   * @param {(base: string) => Promise<T>} request
   */
  call(request) {
    return retry(this.shared, this.index, request);
  }

  async run() {
    // Until the kills are over and every project is made.
    while (!this.shared.stopLoad || this.shared.projectsStarted < PROJECTS) {
      if (this.shared.projectsStarted < PROJECTS) {
        this.shared.projectsStarted += 1;
        await this.newProject();
      } else if (this.shared.stopLoad) {
        break;
      } else if (this.mine.length > 0) {
        // Enough projects: keep writing, with invitations of addresses that have no account.
        await this.invite(this.mine[Math.floor(random() * this.mine.length)], this.guest());
        // A few invitations a second per client: more than people send, within what the mail
        // job delivers (a backlog would only make the final wait longer).
        await sleep(250);
      } else {
        await sleep(200);
      }
      await this.acceptSome(2);
    }
  }

  guest() {
    this.made += 1;
    return `guest${this.index}-${this.made}-${this.shared.runId}@soak.example`;
  }

  async newProject() {
    this.made += 1;
    const name = `Soak ${this.shared.runId} c${this.index} p${this.made}`;
    // One idempotency key for every attempt: a create whose answer was lost is not made twice.
    const idempotencyKey = `soak-${this.shared.runId}-${this.index}-${this.made}`;
    const res = await this.call((base) =>
      api(base, "POST", "/api/app/create", {
        cookie: this.owner.cookie,
        json: { name, idempotencyKey },
      }),
    );
    if (res.status !== 201 && res.status !== 200) {
      throw new Fatal(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
    const project = { id: res.body._id, studioId: res.body.studioId, name, owner: this.owner };
    this.shared.projects.push(project);
    this.shared.result.acked.projects += 1;
    this.mine.push(project);
    await this.addWebhook(project);
    // Two members with accounts (who accept once the studio is ready) and one guest.
    for (let j = 0; j < 2; j += 1) {
      const invitee = this.invitees[(this.made + j + this.index) % this.invitees.length];
      await this.invite(project, invitee.email);
      this.pending.push({ project, invitee });
    }
    await this.invite(project, this.guest());
  }

  /**
   * @param {Project} project
   * @returns {Promise<void>}
   */
  async addWebhook(project, signedInAgain = false) {
    // A retry after a lost answer adds a second webhook: both get every event, both are checked.
    const res = await this.call((base) =>
      api(base, "POST", "/api/app/webhooks", {
        cookie: this.owner.cookie,
        json: {
          studioId: project.studioId,
          url: this.shared.webhookUrl,
          events: SOAK_WEBHOOK_EVENTS,
        },
      }),
    );
    if (res.status === 403 && !signedInAgain) {
      // Adding a webhook asks for a proof of the last 10 minutes (decision 039): sign in again.
      this.owner.cookie = await this.call((base) => logIn(base, this.owner.email, PASSWORD));
      return this.addWebhook(project, true);
    }
    if (res.status !== 201)
      throw new Fatal(`webhook answered ${res.status}: ${JSON.stringify(res.body)}`);
    this.shared.webhooks.push({ project, id: res.body.id });
    this.shared.result.acked.webhooks += 1;
  }

  /**
   * @param {Project} project
   * @param {string} email
   */
  async invite(project, email) {
    // Retried after a lost answer like any client would: a second attempt that finds the first
    // committed resends (200), which is a second invitation mail and a second activity entry.
    const res = await this.call((base) =>
      api(base, "POST", "/api/app/members", {
        cookie: this.owner.cookie,
        json: { studioId: project.studioId, email, role: "editor" },
      }),
    );
    if (res.status !== 201 && res.status !== 200) {
      throw new Fatal(`invite answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
    this.shared.invitations.push({ project, email });
    this.shared.result.acked.invitations += 1;
  }

  /**
   * Accepts up to `max` waiting invitations whose project's studio is ready.
   * @param {number} max
   */
  async acceptSome(max) {
    let tried = 0;
    for (const item of [...this.pending]) {
      if (tried >= max) return;
      tried += 1;
      const done = await this.accept(item);
      if (done) this.pending.splice(this.pending.indexOf(item), 1);
    }
  }

  /** @param {Pending} pending */
  async accept({ project, invitee }) {
    const view = await this.call((base) =>
      api(base, "GET", `/api/app/${project.studioId}`, { cookie: this.owner.cookie }),
    );
    if (view.status !== 200) throw new Fatal(`project answered ${view.status}`);
    // Accepted once the content studio exists, so the member's studio invitation is expected.
    if (view.body.studioCreationStatus !== "success") return false;
    const member = view.body.members.find(
      (/** @type {{ invitedEmail: string }} */ m) => m.invitedEmail === invitee.email,
    );
    if (!member) throw new Fatal(`acknowledged invitation of ${invitee.email} missing`);
    if (member.status === "accepted") {
      // An earlier attempt committed but its answer was lost.
      this.shared.acceptedUnacked += 1;
      return true;
    }
    const res = await this.call((base) =>
      api(base, "PATCH", "/api/app/members", {
        cookie: invitee.cookie,
        json: {
          studioId: project.studioId,
          memberInvitationKey: member.invitationKey,
          action: "accept",
          email: invitee.email,
        },
      }),
    );
    if (res.status !== 200) return false; // read again next time (resent or accepted meanwhile)
    this.shared.acceptances.push({ project, email: invitee.email });
    this.shared.result.acked.acceptances += 1;
    return true;
  }

  /** @param {number} deadline */
  async drainAccepts(deadline) {
    while (this.pending.length > 0) {
      if (Date.now() > deadline) {
        throw new Fatal(`${this.pending.length} acceptances still waiting for their studio`);
      }
      await this.acceptSome(this.pending.length);
      if (this.pending.length > 0) await sleep(500);
    }
  }
}
