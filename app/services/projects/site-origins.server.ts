/**
 * The origins a project's hosted site is served from (its provider addresses and custom
 * domains): the only browser origins its public endpoints accept (forms, page views).
 */
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { type projects, projectSites } from "~/db/schema";
import { env } from "~/utils/env.server";

type SiteAddresses = Pick<
  typeof projects.$inferSelect,
  "id" | "siteUrl" | "siteCustomDomain" | "publishForgeSiteUrl"
>;

export function originOf(address: string | null | undefined): string | null {
  if (!address) return null;
  try {
    return new URL(address.includes("://") ? address : `https://${address}`).origin;
  } catch {
    return null;
  }
}

export async function siteOrigins(project: SiteAddresses): Promise<string[]> {
  const sites = await db()
    .select({ url: projectSites.url, customDomain: projectSites.customDomain })
    .from(projectSites)
    .where(eq(projectSites.projectId, project.id));
  const candidates = [
    project.siteUrl,
    project.siteCustomDomain,
    project.publishForgeSiteUrl,
    ...sites.flatMap((s) => [s.url, s.customDomain]),
  ];
  const origins = candidates.map(originOf).filter((o): o is string => Boolean(o));
  // The local hosting provider serves every site from the dashboard itself (/local/sites/...).
  if (env().PROVIDERS === "local") origins.push(new URL(env().APP_URL).origin);
  return [...new Set(origins)];
}
