import {
  dashboardUpgradeTo,
  isLive,
  projectBadge,
  publishedSiteUrl,
  siteAddress,
  siteProviders,
  type ProjectBadge,
  type ProviderRow,
} from "~/services/projects";
import type { Project } from "~/services/projects/index.server";

/**
 * What the project pages send to the browser: the facts they show and the statuses derived on
 * the server (one clock, so the server render and hydration agree). Tokens and idempotency keys
 * stay on the server.
 */
export type ProjectView = {
  id: string;
  studioId: string;
  name: string;
  owner: { name: string; email: string };
  createdAt: string;
  updatedAt: string;
  siteType: Project["siteType"];
  siteCreationStatus: Project["siteCreationStatus"];
  studioCreationStatus: Project["studioCreationStatus"];
  siteUrl: string | null;
  siteCustomDomain: string | null;
  studioUrl: string | null;
  studioCustomDomain: string | null;
  publishForgeSiteUrl: string | null;
  schemaVersion: number;
  version: string | null;
  stackshiftVersion: string | null;
  isSiteOnVercel: boolean;
  sites: Project["sites"];
  addons: {
    ecommerce: boolean;
    aiNewsletter: boolean;
    socialMedia: boolean;
    gpt: boolean;
    visualTests: boolean;
    endToEndTests: boolean;
  };
  role: Project["role"];
  isOwner: boolean;
  /** Derived (app/services/projects/project-status.ts). */
  badge: ProjectBadge;
  live: boolean;
  /** The schema version the dashboard needs when the site is below it, else null. */
  upgradeTo: number | null;
  /** 'Visit': the custom domain, else the site URL (http(s) only). */
  address: string | null;
  /** The project navigation's external link: the publish site address, else none. */
  publishedUrl: string | null;
  providers: ProviderRow[];
};

export function toProjectView(project: Project, now: Date): ProjectView {
  return {
    id: project._id,
    studioId: project.studioId,
    name: project.name,
    owner: project.owner,
    createdAt: project._createdAt,
    updatedAt: project._updatedAt,
    siteType: project.siteType,
    siteCreationStatus: project.siteCreationStatus,
    studioCreationStatus: project.studioCreationStatus,
    siteUrl: project.siteUrl,
    siteCustomDomain: project.siteCustomDomain,
    studioUrl: project.studioUrl,
    studioCustomDomain: project.studioCustomDomain,
    publishForgeSiteUrl: project.publishForgeSiteUrl,
    schemaVersion: project.schemaVersion,
    version: project.version,
    stackshiftVersion: project.stackshiftVersion,
    isSiteOnVercel: project.isSiteOnVercel,
    sites: project.sites,
    addons: {
      ecommerce: project.isCStudioEnabled,
      aiNewsletter: project.isAINewsletterEnabled,
      socialMedia: project.isSocialMediaEnabled,
      gpt: project.isGPT3Enabled,
      visualTests: project.isVisualTestsEnabled,
      endToEndTests: project.isEndToEndTestsEnabled,
    },
    role: project.role,
    isOwner: project.isOwner,
    badge: projectBadge(project, now),
    live: isLive(project),
    upgradeTo: dashboardUpgradeTo(project.schemaVersion),
    address: siteAddress(project),
    publishedUrl: publishedSiteUrl(project),
    providers: siteProviders(project),
  };
}
