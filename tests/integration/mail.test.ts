import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { deliver, queueMail } from "~/services/mail.server";
import { resetEnv } from "~/utils/env.server";

/** Delivery over a real SMTP server on 127.0.0.1 (smtp-server), and the failure path. */
const received: { to: string[]; body: string }[] = [];
let server: SMTPServer;
let port = 0;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let body = "";
      stream.on("data", (c: Buffer) => (body += c.toString("utf8")));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), body });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.server.address() as { port: number }).port;
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  resetEnv();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("mail delivery", () => {
  it("hands an outbox row to SMTP and marks it sent", async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
    resetEnv();
    const id = await queueMail(db(), {
      to: "someone@example.com",
      subject: "Welcome",
      text: "Open http://localhost:3000/x",
    });
    await deliver(id);
    const [row] = await db().select().from(outbox).where(eq(outbox.id, id));
    expect(row.status).toBe("sent");
    expect(row.sentAt).not.toBeNull();
    const mail = received.find((m) => m.to.includes("someone@example.com"));
    expect(mail?.body).toContain("Subject: Welcome");
  });

  it("keeps mail in the local outbox when SMTP_URL is unset", async () => {
    delete process.env.SMTP_URL;
    resetEnv();
    const id = await queueMail(db(), { to: "local@example.com", subject: "Kept", text: "Body" });
    await deliver(id);
    const [row] = await db().select().from(outbox).where(eq(outbox.id, id));
    expect(row.status).toBe("kept");
  });
});
