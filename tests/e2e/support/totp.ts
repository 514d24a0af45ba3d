import { generateTOTP } from "@epic-web/totp";
import type { Page } from "@playwright/test";
import { expect, settle } from "./fixtures";

/**
 * The app's code for `secret`, `steps` 30-second steps from now: the test plays the phone.
 * @epic-web/totp reads the time as `new Date()`, so a Date that starts `steps` steps ahead stands
 * in for the clock while the code is made.
 */
export async function codeFor(secret: string, steps = 0) {
  const RealDate = Date;
  const ahead = steps * 30_000;
  class Ahead extends RealDate {
    constructor(...args: []) {
      if (args.length) super(...args);
      else super(RealDate.now() + ahead);
    }
  }
  globalThis.Date = Ahead as DateConstructor;
  try {
    return (await generateTOTP({ secret, period: 30, digits: 6, algorithm: "SHA-1" })).otp;
  } finally {
    globalThis.Date = RealDate;
  }
}

/**
 * Sets up an authenticator app for the signed-in person through /sites/user-settings/two-factor
 * (with or without JavaScript); returns the secret and the ten recovery codes.
 */
export async function setUpAuthenticatorApp(page: Page) {
  await page.goto("/sites/user-settings/two-factor");
  const app = page.getByRole("region", { name: "Authenticator app" });
  await app.getByRole("button", { name: "Set up an authenticator app" }).click();
  const secret = (await app.getByLabel("Set-up key").innerText()).replace(/\s/g, "");
  await app.getByLabel("Code from the app").fill(await codeFor(secret));
  await app.getByRole("button", { name: "Turn on" }).click();
  const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  await settle(page);
  return { secret, recoveryCodes: await codes.allInnerTexts() };
}
