import type { LoaderFunctionArgs } from "@remix-run/node";
import { testRunsQuerySchema } from "~/services/addons.schema";
import { testRunsForRepo } from "~/services/test-runs.server";
import { handleApi, parseInput } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

/**
 * GET /api/app/e2e-test-runs?repo={owner/name}: the latest GitHub Actions runs of a project's site
 * repository, `{runs: [{id, title, branch, status, conclusion, updatedAt, url}]}`. 400 without a
 * repository name, 404 for a repository of no project the caller may view and when GitHub has no
 * runs for it ('End To End Tests not found'), 503 while GitHub does not answer.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const user = await requireApiUser(request);
    const { repo } = parseInput(testRunsQuerySchema, {
      repo: new URL(request.url).searchParams.get("repo") ?? undefined,
    });
    return Response.json({ runs: await testRunsForRepo(user, repo) });
  });
}
