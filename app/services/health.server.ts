import { database } from "~/db/client.server";

export async function healthCheck() {
  await database().raw("select 1");
}
