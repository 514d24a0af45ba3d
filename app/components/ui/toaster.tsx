import { useEffect, useState } from "react";
import type { Toast } from "~/utils/toast.server";
import { useHydrated } from "~/utils/page-load";
import { usePopups } from "~/utils/page-load";

const toneClass: Record<Toast["type"], string> = {
  success: "border-green-500",
  error: "border-red-500",
  info: "border-brand",
};

/** Toasts raised on the page itself (a form's failure), beside the flashed one. */
const raised = new Set<(toast: Toast) => void>();
let raisedCount = 0;

/** Shows a toast now, without a round trip (JavaScript only: the Toaster must be hydrated). */
export function raiseToast(toast: Omit<Toast, "id">) {
  raisedCount += 1;
  for (const listener of raised) listener({ id: `raised-${raisedCount}`, ...toast });
}

function Body({ toast }: { toast: Toast }) {
  return (
    <>
      <p className="text-sm font-semibold">{toast.title}</p>
      {toast.description ? (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{toast.description}</p>
      ) : null}
    </>
  );
}

/**
 * Shows the flashed toasts. Before JavaScript runs they are a plain status message on the page; once
 * Radix is loaded after hydration it takes over (timed dismissal, swipe, F8 to focus the region)
 * and shows the toasts raised meanwhile.
 */
export function Toaster({ flashed }: { flashed: Toast[] }) {
  const popups = usePopups();
  const [toasts, setToasts] = useState<Toast[]>(flashed);
  useEffect(() => {
    setToasts((current) => {
      const fresh = flashed.filter((f) => !current.some((t) => t.id === f.id));
      if (!fresh.length) return current;
      // A progress note raised while a form was on its way ('Verification in progress') gives
      // way to the server's answer, which repeats it while the work goes on.
      return [
        ...current.filter((c) => !(c.id.startsWith("raised-") && c.type === "info")),
        ...fresh,
      ];
    });
  }, [flashed]);
  useEffect(() => {
    // A form's new failure replaces the one before it: a person who tries again sees one answer,
    // not a stack of the same words.
    const listener = (t: Toast) =>
      setToasts((current) => [...current.filter((c) => !c.id.startsWith("raised-")), t]);
    raised.add(listener);
    return () => {
      raised.delete(listener);
    };
  }, []);

  if (!popups) {
    return flashed.length ? (
      // Without JavaScript nothing dismisses them: clicks pass through to what they cover.
      <div
        role="status"
        className="pointer-events-none fixed bottom-4 right-4 z-50 flex flex-col gap-2"
      >
        {flashed.map((toast) => (
          <div key={toast.id} className={`${box} ${toneClass[toast.type]}`}>
            <Body toast={toast} />
          </div>
        ))}
      </div>
    ) : null;
  }
  const { Toast: RadixToast } = popups;
  return (
    <RadixToast.Provider swipeDirection="right">
      {toasts.map((t) => (
        <RadixToast.Root
          key={t.id}
          duration={t.duration ?? 5000}
          className={`${box} ${toneClass[t.type]}`}
          // A failure interrupts, like the page's own alerts; a confirmation waits its turn.
          role={t.type === "error" ? "alert" : undefined}
          onOpenChange={(open) => {
            if (!open) setToasts((current) => current.filter((c) => c.id !== t.id));
          }}
        >
          <RadixToast.Title className="text-sm font-semibold">{t.title}</RadixToast.Title>
          {t.description ? (
            <RadixToast.Description className="mt-1 text-sm text-slate-600 dark:text-slate-300">
              {t.description}
            </RadixToast.Description>
          ) : null}
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="fixed bottom-4 right-4 z-50 flex flex-col gap-2 outline-none" />
    </RadixToast.Provider>
  );
}

export { Body as ToastBody };

const box = "w-80 rounded-md border-l-4 bg-white p-4 shadow-lg dark:bg-slate-800";

/**
 * A form's failure that belongs to no field, as a toast: raised once hydrated; before
 * JavaScript (or without it) the same box, fixed where toasts show, in the page that answered.
 */
export function FailureToast({ message, errors }: { message?: string | null; errors?: string[] }) {
  const hydrated = useHydrated();
  const text = message ?? errors?.[0];
  useEffect(() => {
    if (hydrated && text) raiseToast({ type: "error", title: text });
    // A new reply with the same words is a new failure: `errors` is a new array then.
  }, [hydrated, text, errors]);
  if (!text || hydrated) return null;
  return (
    <div role="alert" className="pointer-events-none fixed bottom-4 right-4 z-50">
      <div className={`${box} ${toneClass.error}`}>
        <Body toast={{ id: "failure", type: "error", title: text }} />
      </div>
    </div>
  );
}
