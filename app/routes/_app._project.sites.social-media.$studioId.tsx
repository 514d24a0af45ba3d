import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { LocalDate } from "~/components/local-date";
import { requireProjectMember } from "~/web/project-loader.server";
import { ProjectSectionPage } from "~/components/project-dashboard/section-page";
import { projectTitle, useProject } from "~/components/project-dashboard/project-frame";
import { projectDataDigest } from "~/services/projects/index.server";
import { listSocialFeeds } from "~/services/integrations/index.server";
import { sectionVersion } from "~/web/section-version.server";

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  projectTitle(matches, "Social Media");

/**
 * /sites/social-media/{studioId}: the project's linked Instagram accounts and the latest posts of
 * each, as the site's feed shows them. Linking and unlinking are on the dashboard's card.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, project } = await requireProjectMember(request, params.studioId);
  // Read before the feeds: a change landing meanwhile makes the next version check differ.
  const digest = await projectDataDigest(project._id, "social-media");
  return {
    feeds: await listSocialFeeds(user, project.studioId),
    dataVersion: sectionVersion(digest),
  };
}

export default function SocialMediaPage() {
  const { feeds, dataVersion } = useLoaderData<typeof loader>();
  const project = useProject();
  return (
    <ProjectSectionPage
      section="social-media"
      dataVersion={dataVersion}
      description={
        <>
          The public feeds your site shows.{" "}
          <Link to={`/sites/${project.studioId}#social-accounts`} className="text-brand underline">
            Manage linked accounts
          </Link>
        </>
      }
    >
      {feeds.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          No account linked yet. Link an Instagram professional account on the project&apos;s
          dashboard to show its feed on your site.
        </p>
      ) : (
        feeds.map((feed) => (
          <section
            key={feed.account.id}
            aria-labelledby={`feed-${feed.account.id}`}
            className="space-y-3"
          >
            <h2 id={`feed-${feed.account.id}`} className="text-lg font-semibold">
              {feed.account.profileName ?? feed.account.userName}{" "}
              <a
                href={feed.account.profileUrl}
                target="_blank"
                rel="noopener noreferrer"
                className="text-sm font-normal text-brand hover:underline"
              >
                @{feed.account.userName}
                <span className="sr-only"> (opens Instagram in a new tab)</span>
              </a>
            </h2>
            {feed.error ? (
              <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                {feed.error}
              </p>
            ) : feed.posts.length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-300">No posts yet.</p>
            ) : (
              <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {feed.posts.map((post) => (
                  <li
                    key={post.id}
                    className="overflow-hidden rounded-lg border border-slate-200 dark:border-slate-800"
                  >
                    {post.mediaUrl ? (
                      <img
                        src={post.mediaUrl}
                        alt={post.caption ?? "Instagram post"}
                        loading="lazy"
                        className="aspect-square w-full object-cover"
                      />
                    ) : (
                      <div
                        aria-hidden="true"
                        className="aspect-square w-full bg-gradient-to-br from-brand/20 to-slate-200 dark:to-slate-800"
                      />
                    )}
                    <div className="space-y-1 p-3 text-sm">
                      <p>{post.caption ?? "(no caption)"}</p>
                      <p className="text-xs text-slate-500 dark:text-slate-400">
                        <LocalDate value={post.timestamp} /> ·{" "}
                        <a
                          href={post.permalink}
                          target="_blank"
                          rel="noopener noreferrer"
                          className="text-brand hover:underline"
                        >
                          View on Instagram<span className="sr-only"> (new tab)</span>
                        </a>
                      </p>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>
        ))
      )}
    </ProjectSectionPage>
  );
}
