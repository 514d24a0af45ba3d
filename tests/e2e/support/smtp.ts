import fs from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { MAIL_DIR, SMTP_PORT } from "../../../playwright.config";

export type ReceivedMail = { to: string[]; raw: string; receivedAt: number };

/** A real SMTP server on 127.0.0.1; each message is written to MAIL_DIR for the tests to read. */
export async function startSmtp() {
  fs.rmSync(MAIL_DIR, { recursive: true, force: true });
  fs.mkdirSync(MAIL_DIR, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const mail: ReceivedMail = {
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString("utf8"),
          receivedAt: Date.now(),
        };
        fs.writeFileSync(
          path.join(MAIL_DIR, `${Date.now()}-${Math.random().toString(36).slice(2)}.json`),
          JSON.stringify(mail),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(SMTP_PORT, "127.0.0.1", resolve));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
