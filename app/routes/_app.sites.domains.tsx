import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { SearchBox } from "~/components/lists/search-box";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { LocalDate } from "~/components/local-date";
import { PROVIDER_LABEL } from "~/components/domains/domain-settings";
import { Badge } from "~/components/ui/badge";
import { buttonClass } from "~/components/ui/button";
import { listDomains } from "~/services/domains/index.server";
import { listParams } from "~/web/list-query";
import { requireUser } from "~/web/session.server";
import { TableHead } from "~/components/ui/table-head";

export const meta: MetaFunction = () => [{ title: "Domains | StackShift" }];

/** Every custom domain of the user's projects, by name; ?q= searches, ?cursor= pages on. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  return listDomains(user, listParams(url.searchParams));
}

export default function DomainsPage() {
  const page = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const searching =
    navigation.state === "loading" && navigation.location.pathname === "/sites/domains";
  const next = page.nextCursor
    ? `/sites/domains?${new URLSearchParams({ ...(page.query ? { q: page.query } : {}), cursor: page.nextCursor })}`
    : null;
  return (
    <section aria-labelledby="domains-heading" className="space-y-6">
      <h1 id="domains-heading" className="text-2xl font-semibold">
        Domains
      </h1>
      <SearchBox
        id="domain-search"
        query={page.query}
        label="Find domain"
        placeholder="Find domain or project"
      />
      {page.domains.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {page.query
            ? "Sorry, we couldn't find what you're looking for!"
            : "No custom domains yet. Set one in a project's Domain Settings."}
        </p>
      ) : (
        <table className="w-full text-left text-sm" aria-busy={searching}>
          <TableHead columns={["Domain", "Project", "Provider", "Status", "SSL", "Last checked"]} />
          <tbody>
            {page.domains.map((d) => (
              <tr key={d.domain} className="border-b border-slate-100 dark:border-slate-800">
                <td className="break-all py-2 pr-4 font-mono">{d.domain}</td>
                <td className="py-2 pr-4">
                  <Link to={`/sites/${d.studioId}`} className="text-brand underline">
                    {d.projectName}
                  </Link>
                </td>
                <td className="py-2 pr-4">{PROVIDER_LABEL[d.provider]}</td>
                <td className="py-2 pr-4">
                  {d.status === "verified" ? (
                    <Badge tone="green">Verified</Badge>
                  ) : (
                    <Badge tone="yellow">Pending</Badge>
                  )}
                </td>
                <td className="py-2 pr-4">{d.ssl ? "Issued" : "Not yet"}</td>
                <td className="py-2">
                  {d.checkedAt ? <LocalDate value={d.checkedAt} style="dateTime" /> : "Not yet"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next ? (
        <Link to={next} className={buttonClass("secondary")}>
          Next page
        </Link>
      ) : null}
    </section>
  );
}
