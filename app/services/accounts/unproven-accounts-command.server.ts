/**
 * `npm run accounts:unproven` (scripts/accounts-unproven.mjs runs this from the server build): the
 * accounts whose address nobody ever proved. Migration 0003 (addresses confirmed before an account
 * exists, decision 004) marked every account that existed then as confirmed, with
 * `email_verified_at` = `created_at`; accounts made since carry the moment of a real proof (a
 * mailed link, single sign-on), never exactly their creation time. Anyone could have created such
 * an account with someone else's address under the old rules, so operators ask these people to
 * prove their address again: a password reset does (its link sets `email_verified_at`), as does
 * a confirmed e-mail change. Platform admins' addresses are flagged first.
 */
import fs from "node:fs";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { closeDatabase, db } from "~/db/client.server";
import { claimDataDir, dataDirHolder, releaseDataDir } from "~/db/data-dir-lock.server";
import { users } from "~/db/schema";
import { env } from "~/utils/env.server";
import { isPlatformAdmin } from "./accounts.server";

const USAGE = `npm run accounts:unproven [-- --json]

Lists the accounts marked confirmed by the migration of the address-confirmation change (their
address was never proved) and flags the platform admins' (PLATFORM_ADMIN_EMAILS). Ask each person
to reset their password (the reset link proves the address); they leave the list once they do.

  --json    one JSON array instead of the table
`;

export type UnprovenAccount = {
  email: string;
  name: string;
  createdAt: string;
  platformAdmin: boolean;
  singleSignOn: boolean;
};

export async function unprovenAccounts(): Promise<UnprovenAccount[]> {
  const rows = await db()
    .select()
    .from(users)
    .where(eq(users.emailVerifiedAt, users.createdAt))
    .orderBy(asc(users.createdAt));
  return rows
    .map((row) => ({
      email: row.email,
      name: row.name,
      createdAt: row.createdAt.toISOString(),
      platformAdmin: isPlatformAdmin(row.email),
      singleSignOn: Boolean(row.oidcSubject),
    }))
    .sort((a, b) => Number(b.platformAdmin) - Number(a.platformAdmin));
}

export function describeUnproven(list: UnprovenAccount[]): string[] {
  if (list.length === 0) return ["No account's address is unproven."];
  const admins = list.filter((a) => a.platformAdmin).length;
  const lines = [
    `${list.length} account${list.length === 1 ? "" : "s"} with an unproven address` +
      (admins ? `, ${admins} of them a platform admin's:` : ":"),
  ];
  for (const a of list) {
    const flags = [a.platformAdmin ? "PLATFORM ADMIN" : "", a.singleSignOn ? "single sign-on" : ""]
      .filter(Boolean)
      .join(", ");
    lines.push(`  ${a.email}  (${a.name}, created ${a.createdAt})${flags ? `  [${flags}]` : ""}`);
  }
  lines.push("Ask each to reset their password: the reset link proves the address.");
  return lines;
}

/** Runs the command; returns the exit code (0 listed, 64 bad usage, 3 database busy). */
export async function unprovenAccountsCommand(
  argv: string[],
  out: (line: string) => void = (line) => console.log(line),
): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    out(USAGE);
    return 0;
  }
  const unknown = argv.find((arg) => arg !== "--json");
  if (unknown) {
    out(`Unknown option ${unknown}\n\n${USAGE}`);
    return 64;
  }
  const config = env();
  if (!config.DATABASE_URL) {
    const holder = dataDirHolder(config.DATA_DIR);
    if (holder) {
      out(
        `The app (process ${holder.pid}) holds the embedded database in ${config.DATA_DIR}: ` +
          "stop it, run this again, then start it.",
      );
      return 3;
    }
    if (!fs.existsSync(path.join(config.DATA_DIR, "db", "PG_VERSION"))) {
      out(`No embedded database in ${config.DATA_DIR} yet: no accounts.`);
      return 0;
    }
    claimDataDir(config.DATA_DIR, "npm run accounts:unproven");
  }
  try {
    const list = await unprovenAccounts();
    if (argv.includes("--json")) out(JSON.stringify(list, null, 2));
    else for (const line of describeUnproven(list)) out(line);
    return 0;
  } finally {
    await closeDatabase();
    if (!config.DATABASE_URL) releaseDataDir(config.DATA_DIR);
  }
}
