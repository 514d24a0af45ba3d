import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { requestPasswordReset } from "~/services/accounts/account-tokens.server";
import { queue } from "~/jobs/queue.server";
import { deliver, MAIL_JOB, queueMail, REDACTED } from "~/services/core/mail.server";
import { resetEnv } from "~/utils/env.server";
import { createUser } from "../helpers";
import { actor, invite, keyOf, mailsTo, ownedProject } from "./members-support";

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

  it("mails the token over SMTP but keeps no usable reset link in the outbox after delivery", async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
    resetEnv();
    const user = await createUser();
    await requestPasswordReset(user.email);
    const [queued] = await db().select().from(outbox).where(eq(outbox.to, user.email));
    const token = queued.text.match(/\/auth\/reset\/([\w-]{43})/)?.[1];
    expect(token).toBeTruthy();
    await deliver(queued.id);
    const delivered = received.find((m) => m.to.includes(user.email));
    expect(delivered?.body.replace(/=\r?\n/g, "")).toContain(token);
    const [stored] = await db().select().from(outbox).where(eq(outbox.id, queued.id));
    expect(stored.status).toBe("sent");
    expect(stored.text).not.toContain(token);
    expect(stored.text).toContain(`/auth/reset/${REDACTED}`);
    expect(stored.secrets).toEqual([]);
  });

  it("without SMTP, logs the links (the laptop's mailbox) and then redacts the stored copy", async () => {
    delete process.env.SMTP_URL;
    resetEnv();
    const logged: string[] = [];
    const spy = vi.spyOn(console, "info").mockImplementation((line: string) => {
      logged.push(line);
    });
    try {
      const secret = "s3cr3t-token-value-0123456789";
      const id = await queueMail(db(), {
        to: "kept@example.com",
        subject: "Confirm",
        text: `Open http://localhost:3000/auth/verify/${secret} to confirm.`,
        secrets: [secret],
      });
      await deliver(id);
      expect(logged.join("\n")).toContain(`http://localhost:3000/auth/verify/${secret}`);
      const [row] = await db().select().from(outbox).where(eq(outbox.id, id));
      expect(row.status).toBe("kept");
      expect(row.text).toBe(`Open http://localhost:3000/auth/verify/${REDACTED} to confirm.`);
    } finally {
      spy.mockRestore();
    }
  });

  it("keeps neither the invitation key nor its address proof in the outbox after delivery", async () => {
    delete process.env.SMTP_URL;
    resetEnv();
    const owner = await actor();
    const project = await ownedProject(owner);
    await invite(owner.cookie, project.studioId, "guest@example.com", "editor");
    const key = await keyOf(project._id, "guest@example.com");
    const [queued] = await mailsTo("guest@example.com");
    const proof = queued.text.match(/\?proof=([\w.-]+)/)?.[1];
    expect(queued.text).toContain(`/invitations/${key}?proof=${proof}`);
    const spy = vi.spyOn(console, "info").mockImplementation(() => undefined);
    try {
      await deliver(queued.id);
    } finally {
      spy.mockRestore();
    }
    const [stored] = await db().select().from(outbox).where(eq(outbox.id, queued.id));
    expect(stored.text).not.toContain(key);
    expect(stored.text).not.toContain(proof);
    expect(stored.text).toContain(`/invitations/${REDACTED}?proof=${REDACTED}`);
  });
});

describe("a mail a person waits for", () => {
  it("is taken before the mails queued ahead of it: its job has the higher priority", async () => {
    const priority = async (id: string) => (await queue().getJobById(MAIL_JOB, id))?.priority;
    const notification = await queueMail(db(), {
      to: "burst@example.com",
      subject: "You are invited to the content studio",
      text: "A notification among many",
    });
    const user = await createUser();
    await requestPasswordReset(user.email);
    const [reset] = await db().select().from(outbox).where(eq(outbox.to, user.email));
    // pg-boss's workers take a queue's jobs highest priority first, then oldest first.
    expect(await priority(notification)).toBe(0);
    expect(await priority(reset.id)).toBeGreaterThan(0);
  });
});
