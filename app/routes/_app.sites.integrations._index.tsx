import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { Badge } from "~/components/ui/badge";
import { integrationLogo, INTEGRATIONS } from "~/services/integrations";
import { requireUser } from "~/web/session.server";

export const meta: MetaFunction = () => [{ title: "Integrations | StackShift" }];

/** /sites/integrations: the catalogue, for everyone signed in. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function IntegrationsCatalogue() {
  return (
    <section aria-labelledby="integrations-heading" className="space-y-6">
      <div>
        <h1 id="integrations-heading" className="text-2xl font-semibold">
          Integrations
        </h1>
        <p className="mt-1 text-slate-600 dark:text-slate-300">
          Connect services to your StackShift sites, then choose the project to configure.
        </p>
      </div>
      <ul className="grid gap-4 sm:grid-cols-2">
        {INTEGRATIONS.map((entry) => (
          <li
            key={entry.slug}
            className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
          >
            <div className="flex items-center justify-between gap-2">
              <div className="flex items-center gap-3">
                {/* Decorative: the name is beside it. */}
                <img
                  src={integrationLogo(entry.slug)}
                  alt=""
                  width={40}
                  height={40}
                  className="h-10 w-10 shrink-0"
                />
                <h2 className="text-lg font-semibold">{entry.name}</h2>
              </div>
              <Badge tone={entry.compatibility === "new" ? "blue" : "gray"}>
                {entry.compatibility === "new" ? "New" : "Default"}
              </Badge>
            </div>
            <p className="flex-1 text-sm text-slate-700 dark:text-slate-200">{entry.text}</p>
            <Link
              to={`/sites/integrations/${entry.slug}`}
              className="self-start text-sm font-medium text-brand hover:underline"
            >
              Choose a project<span className="sr-only"> for {entry.name}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
