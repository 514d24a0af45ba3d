import { useState } from "react";
import { useHydrated } from "~/utils/page-load";
import { buttonClass } from "~/components/ui/button";

/**
 * Copies `value` to the clipboard ('Copied' for two seconds). Without JavaScript the value is on
 * the page to select, and the button (which needs the clipboard API) is not shown.
 */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  if (!hydrated) return null;
  return (
    <button
      type="button"
      className={buttonClass("secondary", "px-2 py-0.5 text-xs")}
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => {
          setCopied(true);
          window.setTimeout(() => setCopied(false), 2000);
        });
      }}
    >
      {copied ? "Copied" : "Copy"}
      <span className="sr-only"> {label}</span>
    </button>
  );
}
