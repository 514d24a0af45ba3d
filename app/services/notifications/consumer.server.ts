/**
 * The notifications' consumer of project events: for each of the project's people (the owner
 * and the accepted members with accounts) whose settings want the event, one mail queued in the
 * fan-out's transaction (never sent here), or, for a person with the digest on, the event kept
 * for their next digest of the project. The person who made the change is mailed like anyone.
 */
import type { Tx } from "~/db/client.server";
import type { projectEvents } from "~/db/schema";
import { queueMail } from "~/services/core/index.server";
import { addToDigest } from "./digest.server";
import { notificationMail, peopleOf } from "./notification-mail.server";
import { isNotifiable, wants } from "./schema";
import { modesFor, settingsOf } from "./settings.server";

export const notificationConsumer = {
  name: "notifications",
  async take(tx: Tx, event: typeof projectEvents.$inferSelect) {
    if (!isNotifiable(event.type)) return;
    const type = event.type;
    const people = await peopleOf(tx, event.projectId);
    if (people.length === 0) return;
    const ids = people.map((p) => p.userId);
    const settings = await settingsOf(tx, ids);
    const modes = await modesFor(tx, event.projectId, ids);
    const project = { id: event.projectId, studioId: event.studioId, name: event.projectName };
    for (const person of people) {
      const mine = settings.get(person.userId)!;
      if (!wants(mine.byRole, person.role, modes.get(person.userId) ?? "settings", type)) continue;
      if (mine.digest) {
        await addToDigest(tx, person.userId, event.projectId, event.id);
        continue;
      }
      await queueMail(
        tx,
        await notificationMail(tx, person, project, [{ type, payload: event.payload }]),
      );
    }
  },
};
