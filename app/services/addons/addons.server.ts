/**
 * Add-ons of a project (the dashboard's Add-ons cards and the PUT routes of the JSON API). A
 * change sets the project's flag, logs `{event}.enabled|disabled` and queues ADDON_SYNC_JOB in one
 * transaction; the job tells the content studio (its feature flag) and every site of the project
 * (the environment variable its builds read), retried with backoff while a provider fails.
 */
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { projects, projectSites } from "~/db/schema";
import { sendJob } from "~/jobs/queue.server";
import type { JobDefinition } from "~/jobs/types";
import { contentStudioProvider } from "~/providers/content-studio/index.server";
import { hostingProvider } from "~/providers/hosting/index.server";
import { encryptSecret } from "~/utils/secrets.server";
import type { User } from "~/services/accounts/index.server";
import { logEvent } from "~/services/activity/index.server";
import { ADDONS, isAddonKey, TOKEN_MESSAGES, type AddonKey } from "./addon-catalog";
import { ConflictError, InvalidError } from "~/services/core";
import { can, projectForAction, withProjectAction } from "~/services/permissions/index.server";
import {
  SCHEMA_VERSION_END_TO_END_TESTS,
  SCHEMA_VERSION_THEME_PREVIEW,
  upgradeRequired,
} from "~/services/projects";
import { siteRepo, testRunsFor, type TestRunsView } from "~/services/deployments/index.server";

export const ADDON_SYNC_JOB = "addons.sync";
const RETRY = { retryLimit: 8, retryDelay: 5, retryBackoff: true } as const;

export type AddonCard = {
  key: AddonKey;
  enabled: boolean;
  /** The schema version it needs when the project's is lower; null when it works here. */
  requires: number | null;
  /** Visual Tests: whether a project token is stored (enabling then needs none). */
  hasToken: boolean;
};

export type AddonsView = {
  canToggle: boolean;
  projectName: string;
  cards: AddonCard[];
  /** The End To End Tests card's latest runs, read while the add-on is on. */
  testRuns: TestRunsView | null;
  /** Theme Preview and Dev Console launches: who may, and Theme Preview's schema gate. */
  tools: { themePreview: boolean; themePreviewRequires: number | null; devConsole: boolean };
};

/** The Add-ons section: every card with its state, for everyone who sees the project. */
export async function getAddons(user: User, studioId: string): Promise<AddonsView> {
  // The row is the authorisation's read (shared by the loaders of one view).
  const { actor, project: row } = await projectForAction(user, studioId, "project.view");
  const runsShown =
    row.isEndToEndTestsEnabled &&
    !upgradeRequired(row.schemaVersion, SCHEMA_VERSION_END_TO_END_TESTS);
  return {
    canToggle: can(actor, "addons.toggle"),
    projectName: row.name,
    testRuns: runsShown ? await testRunsFor(siteRepo(row)) : null,
    tools: {
      themePreview: can(actor, "theme.preview"),
      themePreviewRequires: upgradeRequired(row.schemaVersion, SCHEMA_VERSION_THEME_PREVIEW)
        ? SCHEMA_VERSION_THEME_PREVIEW
        : null,
      devConsole: can(actor, "devconsole.launch"),
    },
    cards: (Object.keys(ADDONS) as AddonKey[]).map((key) => {
      const addon = ADDONS[key];
      return {
        key,
        enabled: row[addon.column],
        requires:
          addon.requires && upgradeRequired(row.schemaVersion, addon.requires)
            ? addon.requires
            : null,
        hasToken: Boolean(row.chromaticProjectToken),
      };
    }),
  };
}

export type AddonChange = { addon: AddonKey; enabled: boolean; changed: boolean; name: string };

/**
 * Switches an add-on on or off: the owner, member admins and platform admins (as support, which
 * the Activity Log records in the same transaction). A gated add-on is refused (409) below its
 * schema version; Visual Tests needs a project token the first time, stored encrypted.
 */
export async function setAddon(
  user: User,
  input: { studioId: string; addon: AddonKey; enabled: boolean; chromaticProjectToken?: string },
): Promise<AddonChange> {
  // Checked here without a log entry; the change's transaction checks again and logs support.
  const { project } = await projectForAction(user, input.studioId, "addons.toggle", {
    mode: "check",
  });
  const addon = ADDONS[input.addon];
  if (input.enabled && addon.requires && upgradeRequired(project.schemaVersion, addon.requires)) {
    throw new ConflictError(
      `${addon.label} needs StackShift version ${addon.requires} or later. Upgrade the project first.`,
    );
  }
  const setUpToken =
    input.addon === "visualTests" && input.enabled && !project.chromaticProjectToken;
  if (setUpToken && !input.chromaticProjectToken) {
    throw new InvalidError(TOKEN_MESSAGES.invalid, {
      chromaticProjectToken: [TOKEN_MESSAGES.invalid],
    });
  }
  if (project[addon.column] === input.enabled) {
    return { addon: input.addon, enabled: input.enabled, changed: false, name: project.name };
  }
  await withProjectAction(user, project.id, "addons.toggle", async ({ tx }) => {
    await tx
      .update(projects)
      .set({
        [addon.column]: input.enabled,
        ...(setUpToken
          ? { chromaticProjectToken: encryptSecret(input.chromaticProjectToken!) }
          : {}),
        updatedAt: new Date(),
      })
      .where(eq(projects.id, project.id));
    await logEvent(tx, {
      projectId: project.id,
      type: `${addon.event}.${input.enabled ? "enabled" : "disabled"}`,
      content: `${user.name || user.email} ${input.enabled ? "enabled" : "disabled"} ${addon.label}`,
      actorId: user.id,
    });
    await sendJob(ADDON_SYNC_JOB, { projectId: project.id, addon: input.addon }, RETRY, tx);
  });
  return { addon: input.addon, enabled: input.enabled, changed: true, name: project.name };
}

/**
 * Tells the providers the add-on's current state (read now, so jobs that run out of order still
 * end where the project is): the studio's feature flag and each site's environment variable.
 * A provider failure throws, and pg-boss retries with backoff.
 */
export async function syncAddon(data: { projectId: string; addon: AddonKey }) {
  const [project] = await db().select().from(projects).where(eq(projects.id, data.projectId));
  if (!project) return;
  const addon = ADDONS[data.addon];
  const enabled = project[addon.column];
  if (project.studioSanityId) {
    await contentStudioProvider().setFeatureFlag(project.studioSanityId, addon.studioFlag, enabled);
  }
  const sites = await db()
    .select()
    .from(projectSites)
    .where(eq(projectSites.projectId, project.id));
  for (const site of sites) {
    if (!site.siteId) continue;
    await hostingProvider(site.provider).setEnvironmentVariable(
      site.siteId,
      addon.siteEnv,
      enabled ? "true" : null,
    );
  }
}

export const addonJobs: JobDefinition[] = [
  {
    name: ADDON_SYNC_JOB,
    handler: async (data) => {
      if (!isAddonKey(data.addon)) return;
      await syncAddon({ projectId: String(data.projectId), addon: data.addon });
    },
  },
];
