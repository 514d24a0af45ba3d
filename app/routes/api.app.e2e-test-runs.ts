import { testRunsQuerySchema } from "~/services/addons";
import { testRunsForRepo, toWorkflowRun } from "~/services/deployments/index.server";
import { apiRoute, queryInput } from "~/web/api.server";

/**
 * GET /api/app/e2e-test-runs?repo={owner/name}: the latest GitHub Actions runs of a project's site
 * repository in GitHub's own shape, `{workflow_runs: [{id, html_url, display_title, head_branch,
 * status, conclusion, updated_at}]}`. 400 without a repository name, 404 for a repository of no
 * project the caller may view and when GitHub has no runs for it ('End To End Tests not found'),
 * 503 while GitHub does not answer.
 */
const api = apiRoute({
  GET: async ({ request, user }) => {
    const { repo } = queryInput(request, testRunsQuerySchema, ["repo"]);
    const runs = await testRunsForRepo(user, repo);
    return Response.json({ workflow_runs: runs.map(toWorkflowRun) });
  },
});

export const loader = api.loader;
export const action = api.action;
