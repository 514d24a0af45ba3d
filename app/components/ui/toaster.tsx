import * as RadixToast from "@radix-ui/react-toast";
import { useEffect, useState } from "react";
import type { Toast } from "~/utils/toast.server";
import { useHydrated } from "remix-utils/use-hydrated";

const toneClass: Record<Toast["type"], string> = {
  success: "border-green-500",
  error: "border-red-500",
  info: "border-brand",
};

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
 * Shows the flashed toast. Before JavaScript runs it is a plain status message on the page; after
 * hydration Radix takes over (timed dismissal, swipe, F8 to focus the region).
 */
export function Toaster({ toast }: { toast: Toast | null }) {
  const hydrated = useHydrated();
  const [toasts, setToasts] = useState<Toast[]>(toast ? [toast] : []);
  useEffect(() => {
    if (toast)
      setToasts((current) =>
        current.some((t) => t.id === toast.id) ? current : [...current, toast],
      );
  }, [toast]);

  const box = "w-80 rounded-md border-l-4 bg-white p-4 shadow-lg dark:bg-slate-800";
  if (!hydrated) {
    return toast ? (
      // Without JavaScript nothing dismisses it: clicks pass through to what it covers.
      <div role="status" className="pointer-events-none fixed bottom-4 right-4 z-50">
        <div className={`${box} ${toneClass[toast.type]}`}>
          <Body toast={toast} />
        </div>
      </div>
    ) : null;
  }
  return (
    <RadixToast.Provider swipeDirection="right">
      {toasts.map((t) => (
        <RadixToast.Root
          key={t.id}
          duration={t.duration ?? 5000}
          className={`${box} ${toneClass[t.type]}`}
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
