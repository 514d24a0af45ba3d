import { Suspense, useState, type ComponentType } from "react";

/**
 * A part of a page whose code loads on its own (a form that brings conform and zod), still
 * server-rendered and hydrated like the rest (docs/decisions/015-lazy-parts.md).
 *
 * React.lazy suspends on its first render even when the code is already there, so a part the
 * server rendered would hydrate later than its page, and any update reaching it meanwhile (a
 * `useHydrated` flip, the 30 s refresh) makes React throw the server's HTML away (error #421).
 * Here a part whose code is loaded renders at once, without a Suspense boundary; entry.client.tsx
 * loads the code of every part the server rendered (each leaves a `<template data-lazy-part>`
 * marker) before hydrating.
 */
const loaders = new Map<string, () => Promise<void>>();

export function lazyPart<P extends object>(
  name: string,
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let Component: ComponentType<P> | null = null;
  let loading: Promise<void> | null = null;
  const start = () =>
    (loading ??= load().then((c) => {
      Component = c;
    }));
  loaders.set(name, start);

  function Part(props: P) {
    // Suspense's contract: throwing the promise shows the fallback until it settles.
    if (!Component) throw start();
    return <Component {...props} />;
  }
  function LazyPart(props: P) {
    // Decided at this instance's first render and kept (switching would remount what it holds).
    // The server and hydration have the code (loadAllParts, entry.client.tsx), so a part the
    // server rendered has no Suspense boundary: React would hydrate such a boundary after the
    // page, at its lowest priority, and an update reaching it first (a parent's `useHydrated`
    // flip, the refresh) makes it discard the server's HTML (error #421). Only a part first
    // shown in the browser before its code is there waits in a boundary.
    const [Loaded] = useState(() => Component);
    return (
      <>
        <template data-lazy-part={name} />
        {Loaded ? (
          <Loaded {...props} />
        ) : (
          <Suspense fallback={null}>
            <Part {...props} />
          </Suspense>
        )}
      </>
    );
  }
  LazyPart.displayName = `LazyPart(${name})`;
  return LazyPart;
}

/**
 * Loads the code of every part (the server, before it renders): a part whose code is already
 * there renders in place instead of suspending, so a page never depends on a first import
 * finishing before the render's time limit (a browser without JavaScript would get the page
 * without its dialog: seen on a busy machine).
 */
export function loadAllParts(): Promise<unknown> {
  return loadKnown(() => [...loaders.keys()], Promise.all.bind(Promise));
}

/** The code of the parts in the server's HTML (entry.client.tsx waits for it to hydrate). */
export function loadServerRenderedParts(root: ParentNode = document): Promise<unknown> {
  const names = new Set(
    Array.from(root.querySelectorAll("template[data-lazy-part]"), (t) =>
      t.getAttribute("data-lazy-part"),
    ),
  );
  // Settled, not all: a chunk that fails to load must not keep the page from hydrating.
  return loadKnown(
    () => [...names].filter((name): name is string => name !== null),
    Promise.allSettled.bind(Promise),
  );
}

/**
 * Loads the named parts whose loaders are known, again while a load makes more known: a part
 * used inside another part's chunk registers only once that chunk has run.
 */
async function loadKnown(
  names: () => string[],
  wait: (loads: Promise<void>[]) => Promise<unknown>,
): Promise<void> {
  const started = new Set<string>();
  for (;;) {
    const next = names().filter((name) => !started.has(name) && loaders.has(name));
    if (next.length === 0) return;
    for (const name of next) started.add(name);
    await wait(next.map((name) => loaders.get(name)!()));
  }
}
