/**
 * After linking Instagram, adding a Stripe account by its keys, connecting one through Stripe
 * Connect and refreshing tokens, all through the live adapters against stand-ins on 127.0.0.1,
 * the database holds none of the tokens or keys those flows used: every row of every table (the
 * app's and the job queue's) is read as text and searched for each of them.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { socialAccounts } from "~/db/schema";
import {
  addPaymentAccount,
  completeStripeConnect,
  startStripeConnect,
} from "~/services/integrations/payments.server";
import {
  completeInstagramLink,
  refreshSocialTokens,
  startInstagramLink,
} from "~/services/integrations/social-accounts.server";
import { resetEnv } from "~/utils/env.server";
import { createUser, insertProject } from "../helpers";
import { startInstagramStandIn, type InstagramStandIn } from "../stand-ins/instagram";
import { startStripeStandIn, type StripeStandIn } from "../stand-ins/stripe";

let ig: InstagramStandIn;
let stripe: StripeStandIn;
const LIVE_ENV = [
  "PROVIDERS",
  "INSTAGRAM_CLIENT_ID",
  "INSTAGRAM_CLIENT_SECRET",
  "INSTAGRAM_API_URL",
  "INSTAGRAM_GRAPH_URL",
  "STRIPE_API_URL",
  "STRIPE_SECRET_KEY",
  "STRIPE_CONNECT_CLIENT_ID",
];

beforeAll(async () => {
  ig = await startInstagramStandIn();
  stripe = await startStripeStandIn();
  Object.assign(process.env, {
    PROVIDERS: "live",
    INSTAGRAM_CLIENT_ID: ig.clientId,
    INSTAGRAM_CLIENT_SECRET: ig.clientSecret,
    INSTAGRAM_API_URL: ig.url,
    INSTAGRAM_GRAPH_URL: ig.url,
    STRIPE_API_URL: stripe.url,
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_CONNECT_CLIENT_ID: "ca_standin123",
  });
  resetEnv();
});

afterAll(async () => {
  for (const name of LIVE_ENV) delete process.env[name];
  resetEnv();
  await ig.close();
  await stripe.close();
});

/** Every row of every table, as text. */
async function databaseText(): Promise<string> {
  const tables = await db().execute(sql`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`);
  const parts: string[] = [];
  for (const t of (tables as unknown as { rows: { schema: string; name: string }[] }).rows) {
    const rows = await db().execute(
      sql.raw(`select t::text as row from "${t.schema}"."${t.name}" t`),
    );
    for (const r of (rows as unknown as { rows: { row: string }[] }).rows) parts.push(r.row);
  }
  return parts.join("\n");
}

describe("secrets at rest", () => {
  it("keeps no access token, secret key or client secret in plaintext anywhere in the database", async () => {
    const owner = { ...(await createUser({ name: "Sally Secret" })), isAdmin: false };
    const project = await insertProject(owner.id);
    const session = { id: "session-for-secrets-test", mode: "popup" as const };

    // Instagram: the authorization page's state, then the stand-in's code for it.
    const authorize = new URL(await startInstagramLink(owner, project.studioId, session));
    await completeInstagramLink(owner, session.id, {
      code: ig.issueCode("secret.keeper"),
      state: authorize.searchParams.get("state")!,
    });
    // The token is refreshed too (so the refreshed one is checked as well).
    await db()
      .update(socialAccounts)
      .set({ tokenExpiresAt: sql`now() + interval '1 day'` });
    expect((await refreshSocialTokens()).refreshed).toBeGreaterThanOrEqual(1);

    // Stripe: a pasted secret key, and an account connected through Stripe Connect.
    await addPaymentAccount(owner, project.studioId, {
      accountName: "Pasted",
      publishableKey: "pk_test_pasted0001",
      secretKey: stripe.secretKey,
      apiVersion: "2020-08-27",
    });
    const connect = new URL(await startStripeConnect(owner, project.studioId, session));
    await completeStripeConnect(owner, session.id, {
      code: stripe.issueConnectCode("acct_1SecretShop"),
      state: connect.searchParams.get("state")!,
    });

    const secrets = [...ig.tokens(), ig.clientSecret, stripe.secretKey, ...stripe.connectTokens];
    expect(ig.tokens().length).toBeGreaterThanOrEqual(3);
    expect(stripe.connectTokens).toHaveLength(1);
    const text = await databaseText();
    expect(text).toContain("secret.keeper"); // the dump does hold the rows
    expect(secrets.filter((secret) => text.includes(secret))).toEqual([]);
  });
});
