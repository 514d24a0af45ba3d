import { SUPPORT_EMAIL } from "~/components/route-error";
import { ButtonLink } from "~/components/ui/button";

export type PermanentErrorView = {
  studioId: string;
  name: string;
  retries: number;
};

/**
 * The permanent-error page: after 3 failed retries the deployment is
 * a permanent 'Deployment Error', handled manually; the page says so and leads back.
 */
export function PermanentError({ view }: { view: PermanentErrorView }) {
  return (
    <main className="mx-auto max-w-xl p-10 text-center">
      <h1 className="text-2xl font-bold">Oops! Permanent Error Deployment...</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        The deployment of <strong className="font-semibold">{view.name}</strong> failed after{" "}
        {view.retries} retries, so it cannot be retried from here. Our team handles it manually: it
        is on our list of deployment errors, and we will get in touch once it is fixed.
      </p>
      <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">
        Questions? Contact support at{" "}
        <a className="text-brand underline" href={`mailto:${SUPPORT_EMAIL}`}>
          {SUPPORT_EMAIL}
        </a>
        .
      </p>
      <div className="mt-6">
        <ButtonLink to={`/sites/${view.studioId}`} variant="secondary">
          Go back to Dashboard
        </ButtonLink>
      </div>
    </main>
  );
}
