import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadProjectSection } from "~/components/project-dashboard/project-loader.server";
import { ProjectSectionPage } from "~/components/project-dashboard/section-page";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data ? `Social Media | ${data.project.name} | StackShift` : "Social Media | StackShift",
  },
];

/** /sites/social-media/{studioId}: owner and members only (others get 404); later issues fill it. */
export function loader({ request, params }: LoaderFunctionArgs) {
  return loadProjectSection(request, params.studioId);
}

export default function ProjectSectionRoute() {
  const { project } = useLoaderData<typeof loader>();
  return <ProjectSectionPage section="social-media" project={project} />;
}
