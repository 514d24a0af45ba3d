import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";

/** The window the authorization page opens in (one at a time). */
const POPUP_NAME = "stackshift-oauth";

/**
 * Reloads the page's data when a return page this window opened reports `message`
 * (OAuthComplete, StripeOAuthComplete), then runs `onComplete` (closing a dialog, say: only
 * after the reload, since closing one does not reload). Only messages from our own origin count.
 */
export function useOAuthCompleteMessage(message: string, onComplete?: () => void) {
  const revalidator = useRevalidator();
  const callback = useRef(onComplete);
  callback.current = onComplete;
  const reload = useRef<"none" | "asked" | "loading">("none");
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.data !== message) return;
      reload.current = "asked";
      revalidator.revalidate();
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [message, revalidator]);
  useEffect(() => {
    if (reload.current === "asked" && revalidator.state === "loading") reload.current = "loading";
    else if (reload.current === "loading" && revalidator.state === "idle") {
      reload.current = "none";
      callback.current?.();
    }
  }, [revalidator.state]);
}

/**
 * Makes a form that starts an authorization open it in a popup: with JavaScript the form posts
 * into a named window opened first (so no popup blocker stops it, and `mode` tells the server);
 * without, it is an ordinary post in this tab. Returns the submit handler and the blocked flag.
 */
export function usePopupSubmit() {
  const [blocked, setBlocked] = useState(false);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const popup = window.open("about:blank", POPUP_NAME, "popup,width=600,height=760");
    if (!popup) {
      event.preventDefault();
      setBlocked(true);
      return;
    }
    setBlocked(false);
    form.target = POPUP_NAME;
    const mode = form.elements.namedItem("mode");
    if (!(mode instanceof HTMLInputElement)) return;
    mode.value = "popup";
    // A form that re-renders before the browser collects its fields (a conform form does, to
    // report its check) gets its hidden `mode` written back to "tab" by React: the collected
    // data is told too.
    form.addEventListener(
      "formdata",
      (collected: FormDataEvent) => collected.formData.set("mode", "popup"),
      { once: true },
    );
  };
  return { onSubmit, blocked };
}
