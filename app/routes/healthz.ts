import { healthCheck } from "~/services/platform/index.server";

/** Liveness for operators and the test harness: 200 once the database answers. */
export async function loader() {
  await healthCheck();
  return new Response("ok", { headers: { "Cache-Control": "no-store" } });
}
