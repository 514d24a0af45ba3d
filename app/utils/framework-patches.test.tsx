/**
 * The patches in patches/ are applied to node_modules (docs/decisions/033-route-matching-once.md,
 * docs/decisions/036-paint-before-scripts.md; conform's, decision 052, is tested in
 * conform-patch.test.tsx, which needs a DOM): each test here fails when its patch is missing,
 * by what the patched code does rather than by its text. The packages are loaded as the server
 * loads them (Node's `require`, their CommonJS `main`), and `<Scripts>` also from the ES module
 * build the browser bundles.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type * as RemixRouter from "@remix-run/router";
import type * as RemixReact from "@remix-run/react";
import { useContext } from "react";
import type * as ReactRouter from "react-router";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import remixConfig from "../../remix.config.js";

const ROOT = path.resolve(__dirname, "../..");
const require = createRequire(import.meta.url);
const router = require("@remix-run/router") as typeof RemixRouter;
const remixCjs = require("@remix-run/react") as typeof RemixReact;
const { UNSAFE_DataRouterContext } = require("react-router") as typeof ReactRouter;
// A variable path: TypeScript has no declarations for the ES module build's files.
const ESM_BUILD = "@remix-run/react/dist/esm/index.js";
// The first import of the ES module build transforms it: seconds on a busy 2-core machine.
const LOAD_TIMEOUT = 30_000;
const loadRemixEsm = () => import(/* @vite-ignore */ ESM_BUILD) as Promise<typeof RemixReact>;

describe("the patched packages", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8"));
  const patched = fs
    .readdirSync(path.join(ROOT, "patches"))
    .filter((name) => name.endsWith(".patch"))
    .map((name) => {
      const [, scope, pkgName, version] = name.match(/^(@[^+]+)\+([^+]+)\+(.+)\.patch$/)!;
      return { name: `${scope}/${pkgName}`, version };
    });

  it("are the two Remix packages and conform's React hooks", () => {
    expect(patched.map((p) => p.name).sort()).toEqual([
      "@conform-to/react",
      "@remix-run/react",
      "@remix-run/router",
    ]);
  });

  it("are pinned to the version their patch was made for, with one copy installed", () => {
    for (const { name, version } of patched) {
      expect(pkg.dependencies[name], name).toBe(version);
      // An override makes every dependant use that copy, the one patch-package patches.
      expect(pkg.overrides[name], name).toBe(`$${name}`);
      const copies = Object.keys(lock.packages).filter((key) =>
        key.endsWith(`node_modules/${name}`),
      );
      expect(copies, name).toEqual([`node_modules/${name}`]);
      expect(lock.packages[`node_modules/${name}`].version, name).toBe(version);
    }
  });

  it("are patched by a postinstall that fails when a patch does not apply", () => {
    expect(pkg.scripts.postinstall).toMatch(/^patch-package\b.*--error-on-fail\b/);
  });
});

describe("@remix-run/router patch: route matching worked out once", () => {
  it("ranks a routes array's branches once: a route pushed into the same array later is not seen", () => {
    const routes: { id: string; path: string }[] = [{ id: "a", path: "/a" }];
    expect(router.matchRoutes(routes, "/a")?.[0].route.id).toBe("a");
    routes.push({ id: "b", path: "/b" });
    // The branches ranked by the first call are used again.
    expect(router.matchRoutes(routes, "/b")).toBeNull();
    // A new array (a new render's routes) is ranked afresh.
    expect(router.matchRoutes([...routes], "/b")?.[0].route.id).toBe("b");
  });

  it("starts afresh when lazy discovery adds children to a route (patchRoutes)", () => {
    const browserRouter = router.createRouter({
      routes: [{ id: "root", path: "/", children: [{ id: "home", index: true }] }],
      history: router.createMemoryHistory(),
    });
    expect(router.matchRoutes(browserRouter.routes, "/later")).toBeNull();
    browserRouter.patchRoutes("root", [{ id: "later", path: "later" }]);
    expect(router.matchRoutes(browserRouter.routes, "/later")?.map((m) => m.route.id)).toEqual([
      "root",
      "later",
    ]);
    browserRouter.dispose();
  });

  it("compiles a route path's matcher once", () => {
    const compiled: string[] = [];
    const NativeRegExp = RegExp;
    globalThis.RegExp = new Proxy(NativeRegExp, {
      construct(target, args: [string, string?], newTarget) {
        if (String(args[0]).includes("compiled-once")) compiled.push(String(args[0]));
        return Reflect.construct(target, args, newTarget);
      },
    });
    try {
      for (const id of ["1", "2", "3"]) {
        expect(router.matchPath("/compiled-once/:id", `/compiled-once/${id}`)?.params).toEqual({
          id,
        });
      }
    } finally {
      globalThis.RegExp = NativeRegExp;
    }
    expect(compiled).toHaveLength(1);
  });
});

/** A production build of one root route whose component is `Root`, as Remix's server passes it. */
function entryContext(Root: () => React.ReactElement, hmr?: { runtime: string }) {
  const manifest = {
    version: "1",
    url: "/assets/manifest-1.js",
    entry: { module: "/assets/entry.client-1.js", imports: ["/assets/chunk-1.js"] },
    routes: {
      root: {
        id: "root",
        path: "",
        module: "/assets/root-1.js",
        imports: ["/assets/root-chunk-1.js"],
        hasAction: false,
        hasLoader: true,
        hasClientAction: false,
        hasClientLoader: false,
        hasErrorBoundary: false,
      },
    },
    hmr,
  };
  return {
    manifest,
    routeModules: { root: { default: Root } },
    staticHandlerContext: {
      basename: "/",
      location: { pathname: "/", search: "", hash: "", state: null, key: "default" },
      matches: [{ params: {}, pathname: "/", pathnameBase: "/", route: { id: "root", path: "" } }],
      loaderData: { root: null },
      actionData: null,
      errors: null,
      statusCode: 200,
      loaderHeaders: {},
      actionHeaders: {},
      activeDeferreds: null,
    },
    // The dashboard's own future flags.
    future: remixConfig.future,
    isSpaMode: false,
    serverHandoffString: "{}",
    renderMeta: {},
  };
}
type Context = ReturnType<typeof entryContext>;

function renderPage(remix: typeof RemixReact, context: Context) {
  return renderToString(<remix.RemixServer context={context as never} url="http://localhost/" />);
}

describe("@remix-run/react patch: RemixServer makes the route objects once per build", () => {
  it("shares the route objects between renders of one build, and not with another build", () => {
    const seen: unknown[] = [];
    function Root() {
      // The router's routes are copies made per render; their loader comes from the route objects.
      const { router } = useContext(UNSAFE_DataRouterContext)!;
      seen.push(router.routes[0].loader);
      return <p>page</p>;
    }
    const first = entryContext(Root);
    renderPage(remixCjs, first);
    // Remix's server makes the routeModules object afresh for every request, with the same modules.
    renderPage(remixCjs, { ...first, routeModules: { ...first.routeModules } });
    expect(seen[0]).toBeTypeOf("function");
    expect(seen[1]).toBe(seen[0]);

    renderPage(remixCjs, { ...first, routeModules: { root: { default: () => Root() } } });
    expect(seen[2]).not.toBe(seen[0]);
  });
});

/**
 * The inline module script of the page, run with stand-ins for the browser: static imports are
 * fetched before any of it runs, `import()` and the preload links it adds are recorded, and the
 * first contentful paint happens when `paint()` is called.
 */
async function runModuleScript(html: string) {
  const source = html.match(/<script type="module"[^>]*>([\s\S]*?)<\/script>/)?.[1] ?? "";
  const fetched: string[] = source.match(/^\s*import\s*(?:\*[^"]*from\s*)?"[^"]+"/gm) ?? [];
  const head = new Set<string>();
  let onPaint: ((list: { getEntriesByName(name: string): unknown[] }) => void) | undefined;
  class PerformanceObserver {
    static supportedEntryTypes = ["paint"];
    constructor(callback: (list: unknown, observer: unknown) => void) {
      onPaint = (list) => callback(list, this);
    }
    observe() {}
    disconnect() {}
  }
  const document = {
    visibilityState: "visible",
    createElement: () => {
      const link = { rel: "", href: "", remove: () => head.delete(link.href) };
      return link;
    },
    head: {
      appendChild(link: { rel: string; href: string }) {
        fetched.push(`${link.rel} ${link.href}`);
        head.add(link.href);
        return link;
      },
    },
  };
  const window: Record<string, unknown> = {};
  const load = async (url: string) => {
    fetched.push(`import ${url}${head.size ? " (preload links in head)" : ""}`);
    return { url };
  };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
  const run = new AsyncFunction(
    "self",
    "window",
    "document",
    "PerformanceObserver",
    "requestAnimationFrame",
    "setTimeout",
    "__import",
    // Only the static imports' syntax is left out; they were recorded above.
    source
      .replace(/^\s*import\s*(?:\*[^"]*from\s*)?"[^"]+";?/gm, "")
      .replace(/\bimport\(/g, "__import("),
  );
  const done = run(
    { PerformanceObserver },
    window,
    document,
    PerformanceObserver,
    () => {},
    () => {},
    load,
  ) as Promise<void>;
  await new Promise((resolve) => setImmediate(resolve));
  const beforePaint = [...fetched];
  return {
    beforePaint,
    /** The first contentful paint: what the script fetches then, once it has run to its end. */
    async paint() {
      expect(onPaint, "the script waits for the paint").toBeDefined();
      onPaint!({ getEntriesByName: (name) => (name === "first-contentful-paint" ? [{}] : []) });
      await done;
      return fetched.slice(beforePaint.length);
    },
    window,
  };
}

describe.each([
  ["CommonJS build (the server's render)", async () => remixCjs],
  ["ES module build (the browser's hydration)", loadRemixEsm],
])("@remix-run/react patch: <Scripts> in the %s", (_build, load) => {
  const Root = (remix: typeof RemixReact) =>
    function Root() {
      return (
        <html lang="en">
          <head />
          <body>
            <p>page</p>
            <remix.Scripts />
          </body>
        </html>
      );
    };

  it(
    "renders no preload link and names no module to fetch before the first paint",
    async () => {
      const remix = await load();
      const html = renderPage(remix, entryContext(Root(remix)));
      expect(html).not.toMatch(/<link[^>]*modulepreload/);
      const script = await runModuleScript(html);
      expect(script.beforePaint).toEqual([]);
      const afterPaint = await script.paint();
      // Then the preloads, the route modules in order while those are in <head>, and the entry
      // last, once the links are gone (React hydrates a <head> the server rendered without them).
      expect(afterPaint).toEqual([
        "modulepreload /assets/entry.client-1.js",
        "modulepreload /assets/chunk-1.js",
        "modulepreload /assets/root-chunk-1.js",
        "modulepreload /assets/root-1.js",
        "import /assets/root-1.js (preload links in head)",
        "import /assets/entry.client-1.js",
      ]);
      expect(script.window.__remixRouteModules).toEqual({ root: { url: "/assets/root-1.js" } });
    },
    LOAD_TIMEOUT,
  );

  it(
    "keeps Remix's own preload links and imports in development (Vite's HMR runtime)",
    async () => {
      const remix = await load();
      const html = renderPage(remix, entryContext(Root(remix), { runtime: "/@vite/client" }));
      const modules = ["entry.client-1", "chunk-1", "root-chunk-1", "root-1"];
      for (const module of modules.map((name) => `/assets/${name}.js`)) {
        expect(html).toContain(`<link rel="modulepreload" href="${module}"/>`);
      }
      expect(html).toContain('import "/@vite/client";');
    },
    LOAD_TIMEOUT,
  );
});
