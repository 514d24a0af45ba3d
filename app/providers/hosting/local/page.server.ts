import { and, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { localDeploys, localSites } from "~/db/schema";
import { deploymentStatus } from "../status";
import { isId } from "./shared.server";

/**
 * What the stand-in's public website shows: the site's name and the deploy it serves (a ready
 * `deployId` of this site when asked for one, else the published deploy), or null when there is
 * no such site. Used by app/routes/local.sites.$siteId.tsx.
 */
export async function localSitePage(
  siteId: string,
  deployId?: string | null,
): Promise<{ name: string; deploy: { id: string; publishedAt: string } | null } | null> {
  if (!isId(siteId) || (deployId != null && !isId(deployId))) return null;
  const [site] = await db().select().from(localSites).where(eq(localSites.id, siteId));
  if (!site) return null;
  const wanted = deployId ?? site.publishedDeployId;
  if (!wanted) return { name: site.name, deploy: null };
  const [deploy] = await db()
    .select()
    .from(localDeploys)
    .where(and(eq(localDeploys.siteId, site.id), eq(localDeploys.id, wanted)));
  const live = deploy && deploymentStatus(site.provider, deploy.state) === "ready";
  return {
    name: site.name,
    deploy: live ? { id: deploy.id, publishedAt: deploy.updatedAt.toISOString() } : null,
  };
}
