import { Form } from "@remix-run/react";
import { Button, ButtonLink } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";

export type FailedDeploymentView = {
  studioId: string;
  name: string;
  idempotencyKey: string;
  retriesLeft: number;
  maxRetries: number;
  /** Generic for members; the provider's own words only for platform admins (deployments.server). */
  lastError: string | null;
};

/**
 * The failed-deployment page: 'Oops! Failed Deployment...' with 'Retry deploy' (a plain form
 * post, so it works before JavaScript loads; it sends the site's name and the project's
 * idempotency key, which together name the project, as the retry API expects) and 'Go back to
 * Dashboard'.
 */
export function FailedDeployment({
  view,
  busy,
  error,
}: {
  view: FailedDeploymentView;
  busy: boolean;
  error: string | null;
}) {
  return (
    <main className="mx-auto max-w-xl p-10 text-center">
      <h1 className="text-2xl font-bold">Oops! Failed Deployment...</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        We could not deploy <strong className="font-semibold">{view.name}</strong>. Retry the
        deployment, and we will build and publish it once again.
      </p>
      <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">
        {view.retriesLeft === 1
          ? "1 retry left."
          : `${view.retriesLeft} of ${view.maxRetries} retries left.`}{" "}
        After {view.maxRetries} failed retries the deployment is handled manually by our team.
      </p>
      {view.lastError ? (
        <p className="mx-auto mt-4 max-w-md break-words rounded-md bg-slate-100 p-3 text-left text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          {view.lastError}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mt-4 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <div className="mt-6 flex flex-wrap items-center justify-center gap-3">
        <Form method="post">
          <input type="hidden" name="name" value={view.name} />
          <input type="hidden" name="idempotencyKey" value={view.idempotencyKey} />
          <Button type="submit" disabled={busy} aria-busy={busy}>
            {busy ? <Spinner label="Retrying" className="h-4 w-4 text-white" /> : null}
            Retry deploy
          </Button>
        </Form>
        <ButtonLink to={`/sites/${view.studioId}`} variant="secondary">
          Go back to Dashboard
        </ButtonLink>
      </div>
    </main>
  );
}
