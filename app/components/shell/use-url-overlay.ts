import { useRef, useState } from "react";
import { useLocation, useNavigate } from "@remix-run/react";
import { urlWith } from "./shell-helpers";

type OpenOptions = {
  /** Where focus goes back to on close; by default the element focused when it opened. */
  returnFocusTo?: HTMLElement | null;
  /** False when closing only to open another overlay, which then takes the focus. */
  restoreFocus?: boolean;
};

/**
 * Open state of a menu, drawer or dialog that is URL-addressable: `?{param}={value}` renders it
 * open on the server (how it works without JavaScript); once JavaScript runs it opens from local
 * state, and closing one that the URL opened drops the param from the URL.
 */
export function useUrlOverlay(param: string, value: string, alsoClear: string[] = []) {
  const location = useLocation();
  const navigate = useNavigate();
  const fromUrl = new URLSearchParams(location.search).get(param) === value;
  const [local, setLocal] = useState(false);
  // Radix returns focus to a Dialog.Trigger; these overlays open from menu items and buttons
  // outside their Dialog, so they put focus back themselves.
  const returnTo = useRef<HTMLElement | null>(null);
  const cleared = Object.fromEntries(alsoClear.map((key) => [key, null]));

  const closeHref = urlWith(location.pathname, location.search, { [param]: null });
  return {
    open: fromUrl || local,
    /** The no-JS way in: a link to the current page with the param set. */
    openHref: urlWith(location.pathname, location.search, { ...cleared, [param]: value }),
    /** The no-JS way out. */
    closeHref,
    /** The element focus returns to when this closes. */
    returnFocusTarget: () => returnTo.current,
    setOpen(next: boolean, options: OpenOptions = {}) {
      setLocal(next);
      if (next) {
        returnTo.current =
          options.returnFocusTo ??
          (document.activeElement instanceof HTMLElement ? document.activeElement : null);
        return;
      }
      const target = returnTo.current;
      returnTo.current = null;
      if (fromUrl) navigate(closeHref, { replace: true, preventScrollReset: true });
      if (target && options.restoreFocus !== false) {
        // After the dialog has unmounted (Radix finishes its own close in a timeout too).
        setTimeout(() => {
          const active = document.activeElement;
          if (target.isConnected && (!active || active === document.body || !active.isConnected)) {
            target.focus();
          }
        }, 0);
      }
    },
  };
}

export type UrlOverlay = ReturnType<typeof useUrlOverlay>;
