import type { LoaderFunctionArgs } from "@remix-run/node";
import { testRunsQuerySchema } from "~/services/addons.schema";
import { testRunsForRepo, toWorkflowRun } from "~/services/test-runs.server";
import { handleApi, parseInput } from "~/web/http.server";
import { requireApiUser } from "~/web/session.server";

/**
 * GET /api/app/e2e-test-runs?repo={owner/name}: the latest GitHub Actions runs of a project's site
 * repository in GitHub's own shape, `{workflow_runs: [{id, html_url, display_title, head_branch,
 * status, conclusion, updated_at}]}`. 400 without a repository name, 404 for a repository of no
 * project the caller may view and when GitHub has no runs for it ('End To End Tests not found'),
 * 503 while GitHub does not answer.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const { repo } = parseInput(testRunsQuerySchema, {
      repo: new URL(request.url).searchParams.get("repo") ?? undefined,
    });
    const runs = await testRunsForRepo(user, repo);
    return Response.json({ workflow_runs: runs.map(toWorkflowRun) });
  });
}
