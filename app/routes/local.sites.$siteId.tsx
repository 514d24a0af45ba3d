import type { LoaderFunctionArgs } from "@remix-run/node";
import { localSitePage } from "~/providers/hosting/index.server";
import { requireLocalProviders } from "~/utils/http.server";

/**
 * /local/sites/{siteId}: the public website of a site hosted by the local provider (its `url`),
 * so 'Visit' opens something real. It is the deployed site, not part of the dashboard: no
 * session, no dashboard chrome or scripts, just the generated page of the published deploy
 * (or of `?deploy={id}`, the deploy's permalink). 404 'Site not deployed yet' until then, and
 * a plain 404 unless PROVIDERS=local.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  requireLocalProviders();
  const deployId = new URL(request.url).searchParams.get("deploy");
  const page = await localSitePage(params.siteId ?? "", deployId);
  if (!page?.deploy) {
    return html(
      404,
      "Site not deployed yet",
      `<main class="card">
        <h1>Site not deployed yet</h1>
        <p>This site has no published deploy. It appears here as soon as its first deployment is ready.</p>
      </main>`,
    );
  }
  const { name, deploy } = page;
  return html(
    200,
    name,
    `<main class="card">
      <p class="eyebrow">Published with StackShift</p>
      <h1>${escapeHtml(name)}</h1>
      <p>Welcome to ${escapeHtml(name)}. This page was generated and published by StackShift.</p>
      <dl>
        <dt>Deploy</dt><dd><code>${escapeHtml(deploy.id)}</code></dd>
        <dt>Published</dt><dd><time datetime="${deploy.publishedAt}">${formatUtc(deploy.publishedAt)}</time></dd>
      </dl>
    </main>`,
  );
}

function formatUtc(iso: string) {
  return new Date(iso).toUTCString();
}

function escapeHtml(text: string) {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

const STYLE = `
  body { margin: 0; min-height: 100vh; display: grid; place-items: center;
    font-family: system-ui, sans-serif; background: #f4f6fb; color: #1e293b; }
  .card { max-width: 36rem; margin: 2rem; padding: 2.5rem; border-radius: 1rem;
    background: #fff; box-shadow: 0 10px 30px rgb(15 23 42 / 0.08); }
  .eyebrow { margin: 0; font-size: 0.8rem; font-weight: 600; letter-spacing: 0.08em;
    text-transform: uppercase; color: #296eff; }
  h1 { margin: 0.5rem 0 1rem; font-size: 2rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem;
    font-size: 0.9rem; color: #475569; }
  dt { font-weight: 600; }
  dd { margin: 0; }`;

/** A complete HTML document: this is the hosted site, rendered without the dashboard's shell. */
function html(status: number, title: string, body: string) {
  return new Response(
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)}</title>
    <style>${STYLE}</style>
  </head>
  <body>
    ${body}
  </body>
</html>`,
    {
      status,
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        // A new deploy must show at once, as after a real publish.
        "Cache-Control": "no-store",
      },
    },
  );
}
