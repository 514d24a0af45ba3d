import { getFormProps, getInputProps } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { SUPPORT_EMAIL } from "~/components/route-error";
import { Button } from "~/components/ui/button";
import { ownAria, useIntentForm } from "~/components/ui/use-intent-form";
import { splashSchema } from "~/services/studio";

/** The splash's form id: the page's only form, so the action's reply needs no intent field. */
const SPLASH_FORM = "studio-splash";

/** A stand-in recap video until the product has its own; youtube-nocookie per the CSP. */
export const RECAP_VIDEO = "https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ";

/**
 * The recap screen shown before the studio opens: a video, 'do not show
 * this splash again' and 'Take me to Studio', a plain form to the autologin page's action, which
 * saves the checkbox and redirects to the studio.
 */
export function RecapSplash({
  projectName,
  label,
  busy = false,
}: {
  projectName: string;
  label: string;
  busy?: boolean;
}) {
  const [form, fields] = useIntentForm(SPLASH_FORM, splashSchema);
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col justify-center gap-6 p-6">
      <header>
        <p className="text-sm font-medium text-brand">StackShift Studio</p>
        <h1 className="mt-1 text-2xl font-semibold">Welcome, {label}!</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-300">
          A quick recap before you open the studio of {projectName}.
        </p>
      </header>
      <div className="aspect-video w-full overflow-hidden rounded-lg bg-slate-200 dark:bg-slate-800">
        <iframe
          src={RECAP_VIDEO}
          title="StackShift Studio recap video"
          loading="lazy"
          className="h-full w-full"
          allow="accelerometer; encrypted-media; gyroscope; picture-in-picture"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </div>
      <Form
        method="post"
        className="flex flex-wrap items-center justify-between gap-4"
        {...getFormProps(form)}
      >
        <label className="flex items-center gap-2 text-sm">
          <input
            key={fields.hideSplash.key}
            {...ownAria(getInputProps(fields.hideSplash, { type: "checkbox" }))}
            className="h-4 w-4 accent-brand"
          />
          do not show this splash again
        </label>
        <Button type="submit" disabled={busy}>
          Take me to Studio
        </Button>
      </Form>
    </main>
  );
}

/** 'Experience has encountered an error!': a failed launch is a clear page, never a 500. */
export function LaunchError() {
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col justify-center p-6 text-center">
      <h1 className="text-2xl font-bold">Experience has encountered an error!</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        The studio could not be opened. The launch link may have expired, or you may no longer have
        access to this project. Go back to your dashboard and choose &apos;Take me to Studio&apos;
        again.
      </p>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        If it keeps happening, please report it to support at{" "}
        <a className="text-brand underline" href={`mailto:${SUPPORT_EMAIL}`}>
          {SUPPORT_EMAIL}
        </a>
        .
      </p>
      <Link to="/" className="mt-6 text-brand underline">
        Go to your projects
      </Link>
    </main>
  );
}
