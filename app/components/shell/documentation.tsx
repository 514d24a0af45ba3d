import { buttonClass } from "~/components/ui/button";
import { Sheet } from "./sheet";
import type { UrlOverlay } from "./use-url-overlay";

const DOCS = "https://docs.stackshift.app";

export const DOCUMENTATION_LINKS = [
  { label: "Getting started", href: `${DOCS}/getting-started` },
  { label: "Creating a project", href: `${DOCS}/projects/create` },
  { label: "Members and roles", href: `${DOCS}/projects/members` },
  { label: "Custom domains", href: `${DOCS}/domains` },
  { label: "Add-ons", href: `${DOCS}/add-ons` },
  { label: "Integrations", href: `${DOCS}/integrations` },
  { label: "Deployments", href: `${DOCS}/deployments` },
];

/** A stand-in introduction video until the product has its own; youtube-nocookie per the CSP. */
export const LEARN_MORE_VIDEO = "https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ";

const external = { target: "_blank", rel: "noopener noreferrer" } as const;

/** The top bar's 'Learn More About StackShift' panel. */
export function LearnMorePanel() {
  return (
    <section
      aria-labelledby="learn-more-heading"
      className="rounded-lg border border-slate-200 p-4 dark:border-slate-700"
    >
      <h3 id="learn-more-heading" className="font-semibold">
        Learn More About StackShift
      </h3>
      <div className="mt-3 aspect-video overflow-hidden rounded-md bg-slate-100 dark:bg-slate-800">
        <iframe
          src={LEARN_MORE_VIDEO}
          title="Introduction to StackShift (video)"
          loading="lazy"
          className="h-full w-full"
          allow="accelerometer; encrypted-media; picture-in-picture"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
      <div className="mt-3 flex flex-col gap-2">
        <a href={DOCS} {...external} className={buttonClass("primary")}>
          Documentation
        </a>
        <a href={`${DOCS}/videos`} {...external} className={buttonClass("secondary")}>
          Video Instructions
        </a>
        <a href={`${DOCS}/faq`} {...external} className={buttonClass("secondary")}>
          Frequently Asked Questions
        </a>
      </div>
    </section>
  );
}

/** The user menu's 'Documentation' entry opens this drawer (?drawer=docs). */
export function DocumentationDrawer({ overlay }: { overlay: UrlOverlay }) {
  return (
    <Sheet overlay={overlay} title="Documentation">
      <ul className="space-y-1">
        {DOCUMENTATION_LINKS.map((link) => (
          <li key={link.href}>
            <a
              href={link.href}
              {...external}
              className="block rounded-md px-3 py-2 text-sm text-brand hover:bg-slate-100 dark:hover:bg-slate-800"
            >
              {link.label}
            </a>
          </li>
        ))}
      </ul>
      <div className="mt-6">
        <LearnMorePanel />
      </div>
    </Sheet>
  );
}
