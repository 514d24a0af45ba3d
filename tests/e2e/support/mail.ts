import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { MAIL_DIR } from "../../../playwright.config";
import type { ReceivedMail } from "./smtp";

/** Decodes quoted-printable soft line breaks and =XX escapes (nodemailer's text encoding). */
function decode(raw: string) {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

function read(to: string): ReceivedMail[] {
  if (!fs.existsSync(MAIL_DIR)) return [];
  return fs
    .readdirSync(MAIL_DIR)
    .map((f) => JSON.parse(fs.readFileSync(path.join(MAIL_DIR, f), "utf8")) as ReceivedMail)
    .filter((m) => m.to.includes(to.toLowerCase()))
    .sort((a, b) => a.receivedAt - b.receivedAt);
}

/** The decoded mails (headers and body) to `to` whose text matches, oldest first. */
export function mailsMatching(to: string, match: RegExp): string[] {
  return read(to)
    .map((m) => decode(m.raw))
    .filter((body) => match.test(body));
}

/** Waits for the newest mail to `to` whose body matches, and returns its decoded text. */
export async function waitForMail(to: string, match: RegExp): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        found = read(to)
          .map((m) => decode(m.raw))
          .reverse()
          .find((body) => match.test(body));
        return Boolean(found);
      },
      { timeout: 15_000, message: `mail to ${to} matching ${match}` },
    )
    .toBe(true);
  return found!;
}

/** The first absolute link in the mail that contains `pathPart`. */
export function linkIn(body: string, pathPart: string): string {
  const link = body.match(/https?:\/\/[^\s"<>]+/g)?.find((l) => l.includes(pathPart));
  if (!link) throw new Error(`No link containing ${pathPart} in mail:\n${body}`);
  return link;
}

/**
 * After "Sign up" without a mailed link: the page says where the confirmation went; the mailed
 * link opens a page where the signup's password is typed again, which creates the account and
 * signs the person in. A link already spent (another worker confirmed first) shows its page.
 */
export async function confirmSignup(
  page: Page,
  email: string,
  password = "a long enough password",
) {
  await expect(page.getByRole("heading", { name: "Confirm your email" })).toBeVisible();
  await expect(page.getByText(`We sent a link to ${email}`)).toBeVisible();
  // Both test servers mail one SMTP server, some to the same address: take this server's link.
  const prefix = `${new URL(page.url()).origin}/auth/verify/`;
  const pattern = new RegExp(prefix.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
  await page.goto(linkIn(await waitForMail(email, pattern), prefix));
  const confirm = page.getByRole("button", { name: "Confirm email" });
  const spent = page.getByRole("heading", { name: "This confirmation link cannot be used" });
  await expect(confirm.or(spent)).toBeVisible();
  if (await spent.isVisible()) return;
  await page.getByLabel("Password").fill(password);
  await confirm.click();
}
