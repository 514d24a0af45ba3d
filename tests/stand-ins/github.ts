/**
 * A GitHub Actions stand-in for the contract tests: `GET /repos/{owner}/{repo}/actions/runs`
 * (per_page, page) as the REST API answers it, GitHub's error body `{message,
 * documentation_url}`, and 404 for repositories it does not hold. The token is checked like
 * GitHub's (Bearer or token scheme); the API version header is recorded.
 */
import { startStandInServer, type FailureRule, type Recorded, type Reply } from "./hosting-server";

export type WorkflowRun = {
  id: number;
  name: string;
  display_title: string;
  head_branch: string | null;
  status: string;
  conclusion: string | null;
  html_url: string;
  created_at: string;
  updated_at: string;
};

export type GitHubStandIn = Awaited<ReturnType<typeof startGitHubStandIn>>;

export async function startGitHubStandIn() {
  const token = "ghp_standin0123456789";
  const repos = new Map<string, WorkflowRun[]>();
  const error = (status: number, message: string) => ({
    message,
    documentation_url: "https://docs.github.com/rest",
    status: String(status),
  });

  function handle(request: Recorded): Reply {
    const auth = request.headers.authorization ?? "";
    if (auth !== `token ${token}` && auth !== `Bearer ${token}`) {
      return { status: 401, body: error(401, "Bad credentials") };
    }
    const match = /^\/repos\/([^/]+)\/([^/]+)\/actions\/runs$/.exec(request.path);
    if (request.method !== "GET" || !match) return { status: 404, body: error(404, "Not Found") };
    const runs = repos.get(`${match[1]}/${match[2]}`);
    if (!runs) return { status: 404, body: error(404, "Not Found") };
    const perPage = Math.min(Number(request.query.get("per_page") ?? 30), 100);
    const page = Math.max(Number(request.query.get("page") ?? 1), 1);
    const sorted = [...runs].sort((a, b) => b.created_at.localeCompare(a.created_at));
    return {
      status: 200,
      body: {
        total_count: runs.length,
        workflow_runs: sorted.slice((page - 1) * perPage, page * perPage),
      },
    };
  }

  const server = await startStandInServer({ handle, errorBody: error });
  return {
    ...server,
    token,
    /** Adds a repository with `count` runs, the newest first, one hour apart. */
    addRepo(path: string, count: number): WorkflowRun[] {
      const now = Date.parse("2026-11-20T12:00:00Z");
      const runs = Array.from({ length: count }, (_, i): WorkflowRun => {
        // GitHub writes times without milliseconds.
        const at = new Date(now - i * 3_600_000).toISOString().replace(".000Z", "Z");
        return {
          id: 9000 + i,
          name: "Playwright",
          display_title: `Run ${i}`,
          head_branch: i === 1 ? null : "main",
          status: i === 0 ? "in_progress" : "completed",
          conclusion: i === 0 ? null : i % 2 ? "success" : "failure",
          html_url: `https://github.com/${path}/actions/runs/${9000 + i}`,
          created_at: at,
          updated_at: at,
        };
      });
      repos.set(path, runs);
      return runs;
    },
    fail: (rule: FailureRule) => server.fail(rule),
  };
}
