// The crash soak's webhook side: a customer's endpoint on 127.0.0.1 that counts each delivery by
// its webhook-id, and the check after the last restart that no delivery was lost to a kill.
// Webhooks promise at least once: a server killed after the POST and before it recorded the
// answer sends again, with the same id; that is counted, not failed.
import http from "node:http";

/** What each soak project's webhook subscribes to: the member events the clients cause. */
export const SOAK_WEBHOOK_EVENTS = ["member.invited", "member.joined"];

/** Starts the endpoint; `received` maps a webhook-id to how many times it arrived. */
export async function startWebhookReceiver() {
  /** @type {Map<string, number>} */
  const received = new Map();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = String(req.headers["webhook-id"] ?? "");
      if (id) received.set(id, (received.get(id) ?? 0) + 1);
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}/soak-hook`,
    received,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}

/**
 * Every subscribed event written after its webhook was added has one delivery; every delivery
 * succeeded and reached the endpoint. Returns the figures the summary prints.
 * @param {{ query: (sql: string, params?: unknown[]) => Promise<any[]> }} direct
 * @param {Map<string, number>} received
 * @param {{ lost: (what: string) => void, duplicate: (what: string) => void }} report
 */
export async function checkWebhookDeliveries(direct, received, { lost, duplicate }) {
  const fannedOut = await direct.query(
    `select w.id as webhook, e.type, e.id as event,
            (select count(*)::int from webhook_deliveries d
             where d.webhook_id = w.id and d.event_id = e.id) as n
     from webhooks w
     join project_events e on e.project_id = w.project_id and e.type = any(w.events)
       and e.created_at > w.created_at`,
  );
  for (const f of fannedOut) {
    if (f.n === 0) lost(`webhook delivery of ${f.type} event ${f.event} to webhook ${f.webhook}`);
    if (f.n > 1) duplicate(`${f.n} deliveries of event ${f.event} to webhook ${f.webhook}`);
  }
  const deliveries = await direct.query(
    `select d.id, d.status, d.attempts, d.event_type from webhook_deliveries d`,
  );
  let arrived = 0;
  let repeated = 0;
  for (const d of deliveries) {
    const times = received.get(d.id) ?? 0;
    if (d.status !== "succeeded")
      lost(`webhook delivery ${d.id} (${d.event_type}) left ${d.status}`);
    if (times === 0) lost(`webhook delivery ${d.id} (${d.event_type}) never reached the endpoint`);
    else arrived += 1;
    repeated += Math.max(0, times - 1);
  }
  const known = new Set(deliveries.map((d) => d.id));
  for (const id of received.keys()) {
    if (!known.has(id)) duplicate(`a webhook-id the database does not know arrived: ${id}`);
  }
  return { deliveries: deliveries.length, arrived, repeated };
}
