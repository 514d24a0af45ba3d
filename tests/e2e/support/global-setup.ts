import { startSmtp } from "./smtp";

/** Starts the SMTP test server for the whole run; mail lands as JSON files in MAIL_DIR. */
export default async function globalSetup() {
  const stop = await startSmtp();
  return stop;
}
