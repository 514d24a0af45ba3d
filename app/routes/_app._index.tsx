import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ProjectListPage } from "~/components/projects/project-list";
import type { loader } from "./_app.sites._index";

// / is the project list too (and where users land after leaving a project).
export { loader } from "./_app.sites._index";
export { overlayShouldRevalidate as shouldRevalidate } from "~/components/shell/shell-helpers";

export const meta: MetaFunction = () => [{ title: "Projects | StackShift" }];

export default function Home() {
  const page = useLoaderData<typeof loader>();
  return <ProjectListPage page={page} />;
}
