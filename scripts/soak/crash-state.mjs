// One run of the crash soak: its record (Result: what the clients had acknowledged, what the
// check found, the figures printed), the state its parts share while it runs (Shared: the
// servers, the load's progress, the acknowledged writes), and Fatal, the error that ends it.
import { INSTANCES, ROLLING } from "./crash-options.mjs";

/**
 * @typedef {import("./lib.mjs").SoakServer} SoakServer
 * @typedef {{ email: string, name: string, id?: string, cookie?: string }} Person
 * @typedef {{ id: string; studioId: string; name: string; owner: Person }} Project
 * An invitation of a person with an account, to accept once the project's studio is ready.
 * @typedef {{ project: Project; invitee: Person }} Pending
 * One database's run: what the clients had acknowledged, what the check found, the figures.
 * @typedef {{
 *   kind: string;
 *   kills: number;
 *   restartFailed: boolean;
 *   restarts: number;
 *   instances: number;
 *   acked: { projects: number; webhooks: number; invitations: number; acceptances: number };
 *   found: number;
 *   lost: string[];
 *   duplicates: string[];
 *   problems: string[];
 *   serverErrors: number;
 *   rolling: boolean;
 *   badExits: string[];
 *   failedRequests: string[];
 *   rerouted: number;
 *   stops: { requests: number; requestsCut: number; jobsFinished: number; jobsGivenBack: number };
 *   seconds: number;
 *   final?: number;
 *   success?: number;
 *   autoDeploys?: number;
 *   mails?: number;
 *   studioMails?: number;
 *   redelivered?: number;
 *   acceptedUnacked?: number;
 *   webhooks?: Awaited<ReturnType<typeof import("./webhooks.mjs").checkWebhookDeliveries>>;
 * }} Result
 * What the run's parts share: the servers, the load's state, the acknowledged writes.
 * @typedef {{
 *   runId: string;
 *   servers: SoakServer[];
 *   stopLoad: boolean;
 *   giveUp: boolean;
 *   loadError: unknown;
 *   projectsStarted: number;
 *   projects: Project[];
 *   webhookUrl: string;
 *   webhooks: { project: Project; id: string }[];
 *   invitations: { project: Project; email: string }[];
 *   acceptances: { project: Project; email: string }[];
 *   acceptedUnacked: number;
 *   result: Result;
 *   ready: boolean[];
 *   stoppedAt?: string;
 * }} Shared
 * @typedef {(i: number) => SoakServer} Start starts instance `i` (again)
 * @typedef {(i: number, what: string) => Promise<void>} Up waits until instance `i` answers
 */

/**
 * A run's record before anything happened.
 * @param {string} kind the database
 * @returns {Result}
 */
export function newResult(kind) {
  return {
    kind,
    kills: 0,
    restartFailed: false,
    restarts: 0,
    instances: INSTANCES,
    acked: { projects: 0, webhooks: 0, invitations: 0, acceptances: 0 },
    found: 0,
    lost: [],
    duplicates: [],
    problems: [],
    serverErrors: 0,
    // --rolling: the restarts' exits, requests that failed, connections refused and sent on.
    rolling: ROLLING,
    badExits: [],
    failedRequests: [],
    rerouted: 0,
    stops: { requests: 0, requestsCut: 0, jobsFinished: 0, jobsGivenBack: 0 },
    seconds: 0,
  };
}

/**
 * What the run's parts share, before the load starts.
 * @param {{ runId: string; servers: SoakServer[]; webhookUrl: string; result: Result }} parts
 * @returns {Shared}
 */
export function newShared({ runId, servers, webhookUrl, result }) {
  return {
    runId,
    servers,
    stopLoad: false,
    giveUp: false,
    loadError: null,
    projectsStarted: 0,
    projects: [],
    webhookUrl,
    webhooks: [],
    invitations: [],
    acceptances: [],
    acceptedUnacked: 0,
    result,
    // --rolling: which instances the balancer sends to (their /readyz answered 200 last).
    ready: Array.from({ length: INSTANCES }, () => !ROLLING),
  };
}

/** What ends a run: its message goes to the problems, with the server's log tail. */
export class Fatal extends Error {
  /**
   * @param {string} message
   * @param {string} [log]
   */
  constructor(message, log = "") {
    super(message);
    this.log = log;
  }
}
