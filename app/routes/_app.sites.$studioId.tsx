import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { formatDate, statusLabel } from "~/components/projects/project-status";
import { NotFoundError } from "~/services/errors";
import { getProject } from "~/services/projects.server";
import { SITE_TYPE_LABEL } from "~/services/projects.schema";
import { requireUser } from "~/utils/session.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.project.name} | StackShift` : "Project | StackShift" },
];

/** /sites/{studioId}: the project's page, for its owner and members only (others get 404). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    return { project: await getProject(user, params.studioId ?? "") };
  } catch (error) {
    if (error instanceof NotFoundError) throw new Response("Not Found", { status: 404 });
    throw error;
  }
}

/** A minimal project page; the full dashboard of spec section 2 grows here. */
export default function ProjectPage() {
  const { project } = useLoaderData<typeof loader>();
  return (
    <article className="space-y-6">
      <h1 className="text-2xl font-semibold">{project.name}</h1>
      <dl className="grid max-w-xl grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="font-medium text-slate-600 dark:text-slate-300">Status</dt>
        <dd>
          Site: {statusLabel(project.siteCreationStatus)} · Studio:{" "}
          {statusLabel(project.studioCreationStatus)}
        </dd>
        <dt className="font-medium text-slate-600 dark:text-slate-300">Site type</dt>
        <dd>{SITE_TYPE_LABEL[project.siteType]}</dd>
        <dt className="font-medium text-slate-600 dark:text-slate-300">Owner</dt>
        <dd>
          {project.owner.name} ({project.owner.email})
        </dd>
        <dt className="font-medium text-slate-600 dark:text-slate-300">Created</dt>
        <dd>
          <time dateTime={project._createdAt}>{formatDate(project._createdAt)}</time>
        </dd>
      </dl>
    </article>
  );
}
