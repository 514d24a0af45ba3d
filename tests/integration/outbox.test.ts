/** /dev/outbox: the local outbox page, platform admins only. */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { loader, splitLinks, TextWithLinks } from "~/routes/_app.dev.outbox";
import { queueMail } from "~/services/core/mail.server";
import { resetEnv } from "~/utils/env.server";
import { call, createUser, makeRequest, sessionCookie } from "../helpers";

type Page = {
  q: string;
  mails: { id: string; to: string; subject: string; status: string; text: string }[];
};

let adminCookie: string;
let userCookie: string;

beforeAll(async () => {
  adminCookie = await sessionCookie((await createUser({ email: "admin@example.com" })).id);
  userCookie = await sessionCookie((await createUser()).id);
});

async function page(query = ""): Promise<Page> {
  const res = await call(loader, makeRequest(`/dev/outbox${query}`, { cookie: adminCookie }));
  expect(res.status).toBe(200);
  return res.json();
}

describe("/dev/outbox", () => {
  it("sends anonymous visitors to login and is a 404 for users who are not platform admins", async () => {
    const anonymous = await call(loader, makeRequest("/dev/outbox"));
    expect(anonymous.status).toBe(302);
    expect(anonymous).toHaveRedirect("/auth/login?redirectTo=%2Fdev%2Foutbox");
    const user = await call(loader, makeRequest("/dev/outbox", { cookie: userCookie }));
    expect(user.status).toBe(404);
  });

  it("lists the outbox newest first with recipient, subject, status and body", async () => {
    const first = await queueMail(db(), { to: "first@example.com", subject: "First", text: "1" });
    await new Promise((r) => setTimeout(r, 5));
    const second = await queueMail(db(), {
      to: "second@example.com",
      subject: "Second",
      text: "Open http://localhost:3000/signup?email=second%40example.com now.",
    });
    const { mails } = await page();
    const ids = mails.map((m) => m.id);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    expect(mails.find((m) => m.id === second)).toMatchObject({
      to: "second@example.com",
      subject: "Second",
      text: "Open http://localhost:3000/signup?email=second%40example.com now.",
    });
    expect(["queued", "kept"]).toContain(mails.find((m) => m.id === second)?.status);
  });

  it("never shows a token, also in a mail still queued", async () => {
    const token = "tok_queued_secret_9f8e7d";
    const id = await queueMail(db(), {
      to: "reset@example.com",
      subject: "Reset",
      text: `Reset: http://localhost:3000/auth/reset/${token}`,
      secrets: [token],
    });
    const mail = (await page()).mails.find((m) => m.id === id)!;
    expect(mail.status).toBe("queued");
    expect(mail.text).toBe("Reset: http://localhost:3000/auth/reset/[removed after delivery]");
  });

  it("filters by recipient or subject", async () => {
    await queueMail(db(), { to: "needle@example.com", subject: "Hello", text: "x" });
    await queueMail(db(), { to: "other@example.com", subject: "About the NEEDLE", text: "x" });
    await queueMail(db(), { to: "hay@example.com", subject: "Hay", text: "needle in body only" });
    const { mails } = await page("?q=Needle");
    expect(mails.map((m) => m.to).sort()).toEqual(["needle@example.com", "other@example.com"]);
  });

  it("makes links in a body clickable, leaving trailing punctuation and other schemes as text", () => {
    expect(splitLinks("See https://a.example/x?y=1. Or javascript:alert(1)")).toEqual([
      { text: "See " },
      { text: "https://a.example/x?y=1", href: "https://a.example/x?y=1" },
      { text: ". Or javascript:alert(1)" },
    ]);
    const html = renderToStaticMarkup(
      createElement(TextWithLinks, {
        text: "Sign up: http://localhost:3000/signup?email=a%40b.co",
      }),
    );
    expect(html).toContain('<a href="http://localhost:3000/signup?email=a%40b.co"');
  });

  it("ignores a malformed search instead of failing", async () => {
    const { q } = await page("?q=%00%FF&limit=-5");
    expect(q).not.toContain("\u0000");
  });

  it("does not exist once mail is really delivered (SMTP_URL) or in production mode", async () => {
    const request = () => call(loader, makeRequest("/dev/outbox", { cookie: adminCookie }));
    process.env.SMTP_URL = "smtp://127.0.0.1:2525";
    resetEnv();
    try {
      expect((await request()).status).toBe(404);
    } finally {
      delete process.env.SMTP_URL;
      resetEnv();
    }
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      expect((await request()).status).toBe(404);
      // `npm start` sets production for React only; that local run keeps its outbox page.
      process.env.STACKSHIFT_IMPLIED_NODE_ENV = "1";
      expect((await request()).status).toBe(200);
    } finally {
      process.env.NODE_ENV = nodeEnv;
      delete process.env.STACKSHIFT_IMPLIED_NODE_ENV;
    }
  });
});
