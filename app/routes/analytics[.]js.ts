/**
 * GET /analytics.js: the script a hosted site includes to count its page views (the tag is on
 * the Analytics page). It reads nothing from the visitor but the page's path and referrer, sets
 * no cookie and stores nothing in the browser; it reports the first view and each client-side
 * navigation with sendBeacon (a text/plain body: no preflight), or fetch with keepalive.
 */
const SCRIPT = `(function () {
  var tag = document.currentScript;
  if (!tag) return;
  var site = tag.getAttribute("data-site");
  var endpoint = new URL("/analytics/collect", tag.src).href;
  var last = null;
  function report() {
    if (location.pathname === last) return;
    last = location.pathname;
    var body = JSON.stringify({ k: site, p: location.pathname, r: document.referrer });
    if (navigator.sendBeacon && navigator.sendBeacon(endpoint, body)) return;
    fetch(endpoint, { method: "POST", body: body, keepalive: true, mode: "no-cors" });
  }
  var push = history.pushState;
  history.pushState = function () {
    push.apply(this, arguments);
    report();
  };
  addEventListener("popstate", report);
  report();
})();
`;

export function loader() {
  return new Response(SCRIPT, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
