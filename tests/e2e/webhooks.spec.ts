import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, pressWithProof, settle, test } from "./support/fixtures";
import { createProject } from "./support/members";
import { toast } from "./support/toasts";

/**
 * Once with JavaScript and once without: the owner adds a webhook pointing at a receiver on
 * 127.0.0.1 (the e2e server runs with WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=1), sees its secret once,
 * invites a member (a member.invited event), sees the delivery in the webhook's log, presses
 * Redeliver and sees the second attempt, with the same webhook-id at the receiver.
 */

test("an owner adds a webhook, sees a delivery in its log and redelivers it", async ({
  page,
  signIn,
}, testInfo) => {
  test.setTimeout(180_000);
  const received: { id: string; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        id: String(req.headers["webhook-id"]),
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(200, { "content-type": "text/plain" }).end("received by the test");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const host = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  try {
    const tag = testInfo.project.name;
    // A platform admin address of playwright.config.ts (sign-up needs access); here the owner.
    await signIn(page, { name: "Ada Admin", email: `admin-${tag}@example.com` });
    const dashboard = await createProject(page, `Webhooks ${tag} ${Date.now()}`);
    const studioId = dashboard.split("/").at(-1)!;

    // From the Settings page to the Webhooks page.
    await page.goto(`/sites/settings/${studioId}`);
    await page.getByRole("link", { name: "Manage webhooks" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
    await expect(page.getByText("No webhooks yet.")).toBeVisible();

    const form = page.getByRole("region", { name: "Add webhook" });
    await form.getByLabel("URL").fill(`http://${host}/hook`);
    await form.getByLabel("Member invited").check();
    await form.getByLabel("Format").selectOption({ label: "Standard (signed JSON)" });
    const secret = page.getByLabel("Signing secret", { exact: true });
    // A session signed in more than 10 minutes ago confirms first (decision 039); the form
    // comes back filled, so the second press adds the webhook.
    await pressWithProof(
      page,
      () => form.getByRole("button", { name: "Add webhook" }).click(),
      secret,
    );
    await expect(secret).toHaveText(/^whsec_/);
    await expect(page.getByText("standardwebhooks").first()).toBeVisible();
    const table = page.getByRole("table", { name: "The project's webhooks" });
    await expect(table.getByRole("row").filter({ hasText: host })).toContainText("Member invited");
    await settle(page);

    // Shown once: a later load does not show it again (a GET: reloading the answer to the
    // form's POST would send the form again, and add a second webhook).
    await page.goto(`/sites/${studioId}/webhooks`);
    await expect(page.getByLabel("Signing secret", { exact: true })).toHaveCount(0);

    // An event: invite a member on the dashboard.
    await page.goto(dashboard);
    const members = page.getByRole("region", { name: "Members" });
    await members.getByLabel("Email").fill(`hooked-${tag}@example.com`);
    await members.getByRole("button", { name: "Send Invitation" }).click();
    await expect(
      page.getByText(`Invitation sent to hooked-${tag}@example.com!`).first(),
    ).toBeVisible();
    await settle(page);

    // The delivery shows in the log once the server's workers have sent it.
    await page.goto(`/sites/${studioId}/webhooks`);
    const log = page.getByRole("region", { name: `Deliveries to ${host}` });
    await expect(async () => {
      await page.reload();
      await expect(log.getByRole("row").filter({ hasText: "member.invited" })).toContainText(
        "Succeeded",
        { timeout: 1000 },
      );
    }).toPass({ timeout: 60_000 });
    const row = log.getByRole("row").filter({ hasText: "member.invited" });
    await expect(row.getByRole("cell").nth(2)).toHaveText("200");
    await expect(row.getByRole("cell").nth(4)).toHaveText("1");
    expect(received).toHaveLength(1);

    await row.getByRole("button", { name: "Redeliver member.invited" }).click();
    await expect(toast(page, "Redelivery queued")).toBeVisible();
    await settle(page);
    await expect(async () => {
      await page.reload();
      await expect(
        log.getByRole("row").filter({ hasText: "member.invited" }).getByRole("cell").nth(4),
      ).toHaveText("2", { timeout: 1000 });
    }).toPass({ timeout: 60_000 });
    expect(received.map((r) => r.id)).toEqual([received[0].id, received[0].id]);
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
});
