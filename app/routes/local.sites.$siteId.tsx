import type { LoaderFunctionArgs } from "@remix-run/node";
import { localSitePage } from "~/providers/hosting/index.server";
import { localSiteAnalytics } from "~/services/analytics/index.server";
import { FORM_MESSAGES, HONEYPOT_FIELD } from "~/services/forms";
import { contactFormOfSite } from "~/services/forms/index.server";
import { env } from "~/utils/env.server";
import { requireLocalProviders } from "~/web/http.server";

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
  const formId = await contactFormOfSite(params.siteId ?? "");
  const analytics = await localSiteAnalytics(params.siteId ?? "");
  const submitted = new URL(request.url).searchParams.get("submitted") === "1";
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
      ${formId ? contactForm(formId, params.siteId ?? "", submitted) : ""}
    </main>
    ${analytics ? pageViewTags(analytics.key, request) : ""}`,
  );
}

/**
 * The site reports its views like a live site with the Analytics page's tag: the script, and
 * without JavaScript a pixel naming this page and its referrer (known here, on the server).
 */
function pageViewTags(key: string, request: Request) {
  const pixel = new URLSearchParams({
    k: key,
    p: new URL(request.url).pathname,
    r: request.headers.get("referer") ?? "",
  });
  return `<script defer src="/analytics.js" data-site="${escapeHtml(key)}"></script>
    <noscript><img src="/analytics/collect?${escapeHtml(pixel.toString())}" alt="" width="1" height="1" /></noscript>`;
}

/** The site's 'Contact' form, posting to the dashboard's public form endpoint. */
function contactForm(formId: string, siteId: string, submitted: boolean) {
  const next = `${env().APP_URL}/local/sites/${encodeURIComponent(siteId)}?submitted=1#contact`;
  return `<section id="contact" aria-labelledby="contact-heading">
      <h2 id="contact-heading">Contact</h2>
      ${submitted ? `<p role="status" class="sent">${escapeHtml(FORM_MESSAGES.thanks)}</p>` : ""}
      <form method="post" action="/forms/${formId}">
        <input type="hidden" name="_next" value="${escapeHtml(next)}" />
        <div class="hp" aria-hidden="true"><label>Leave this empty <input name="${HONEYPOT_FIELD}" tabindex="-1" autocomplete="off" /></label></div>
        <label>Name <input name="name" required maxlength="200" autocomplete="name" /></label>
        <label>E-mail <input type="email" name="email" required maxlength="320" autocomplete="email" /></label>
        <label>Message <textarea name="message" required maxlength="5000" rows="4"></textarea></label>
        <button type="submit">Send</button>
      </form>
    </section>`;
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
  .card { box-sizing: border-box; max-width: min(36rem, calc(100vw - 2rem)); margin: 2rem 1rem;
    padding: clamp(1rem, 6vw, 2.5rem); border-radius: 1rem; overflow-wrap: anywhere;
    background: #fff; box-shadow: 0 10px 30px rgb(15 23 42 / 0.08); }
  .eyebrow { margin: 0; font-size: 0.8rem; font-weight: 600; letter-spacing: 0.08em;
    text-transform: uppercase; color: #2563eb; }
  h1 { margin: 0.5rem 0 1rem; font-size: 2rem; }
  dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.25rem 1rem;
    font-size: 0.9rem; color: #475569; }
  dt { font-weight: 600; }
  dd { margin: 0; }
  form { display: grid; gap: 0.75rem; }
  label { display: grid; gap: 0.25rem; font-size: 0.9rem; font-weight: 600; }
  input, textarea { font: inherit; padding: 0.5rem; border: 1px solid #cbd5e1; border-radius: 0.5rem; }
  button { justify-self: start; font: inherit; font-weight: 600; padding: 0.5rem 1.25rem;
    border: 0; border-radius: 0.5rem; background: #2563eb; color: #fff; cursor: pointer; }
  .hp { position: absolute; left: -10000px; }
  .sent { padding: 0.75rem; border-radius: 0.5rem; background: #dcfce7; color: #166534; }`;

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
