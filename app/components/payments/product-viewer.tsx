import { Link, useLocation, useNavigation } from "@remix-run/react";
import { urlWith } from "~/components/shell/shell-helpers";
import { Spinner } from "~/components/ui/spinner";
import type { ProductsTab, ProductsView } from "~/services/integrations/index.server";
import { TableHead } from "~/components/ui/table-head";

const TABS: { tab: ProductsTab; label: string; empty: string }[] = [
  { tab: "active", label: "Active Products", empty: "No active products found for this account" },
  {
    tab: "archived",
    label: "Archive Products",
    empty: "No archived products found for this account",
  },
];

/** Unix seconds as a UTC date: the server's page and the browser's agree (no hydration mismatch). */
const day = (seconds: number) =>
  new Date(seconds * 1000).toLocaleDateString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

/**
 * An account's products in two tabs, each read only when chosen (its address: `?products=
 * {account}&tab=`), 20 at a time from Stripe ('More products' continues after the last one).
 * Links, so the tabs and pages work without JavaScript; a spinner while a tab loads.
 */
export function ProductViewer({ view }: { view: ProductsView }) {
  const location = useLocation();
  const navigation = useNavigation();
  const loading =
    navigation.state === "loading" &&
    new URLSearchParams(navigation.location.search).get("products") === view.accountId;
  const current = TABS.find((t) => t.tab === view.tab)!;
  const tabUrl = (tab: ProductsTab, after?: string) =>
    urlWith(location.pathname, location.search, {
      products: view.accountId,
      tab,
      after: after ?? null,
    });
  return (
    <section aria-labelledby="products-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="products-heading" className="text-lg font-semibold">
          Products of {view.accountName}
        </h2>
        <Link
          to={urlWith(location.pathname, location.search, {
            products: null,
            tab: null,
            after: null,
          })}
          preventScrollReset
          className="text-sm text-brand hover:underline"
        >
          Close products
        </Link>
      </div>
      <div
        role="tablist"
        aria-label="Products"
        className="flex gap-2 border-b border-slate-200 dark:border-slate-800"
      >
        {TABS.map((t) => (
          <Link
            key={t.tab}
            role="tab"
            id={`products-tab-${t.tab}`}
            aria-selected={t.tab === view.tab}
            aria-controls="products-panel"
            to={tabUrl(t.tab)}
            preventScrollReset
            replace
            className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium aria-selected:border-brand aria-selected:text-brand"
          >
            {t.label}
          </Link>
        ))}
      </div>
      <div
        id="products-panel"
        role="tabpanel"
        aria-labelledby={`products-tab-${view.tab}`}
        aria-busy={loading || undefined}
        className="h-[458px] overflow-y-auto"
      >
        {loading ? (
          <div className="flex h-full items-center justify-center">
            <Spinner label="Loading products" className="h-6 w-6" />
          </div>
        ) : view.error ? (
          <p role="alert" className="p-3 text-sm text-red-600 dark:text-red-400">
            {view.error}
          </p>
        ) : view.products.length === 0 && !view.nextCursor ? (
          <p className="p-3 text-sm text-slate-600 dark:text-slate-300">{current.empty}</p>
        ) : (
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{current.label}</caption>
            <TableHead
              columns={[
                "Product Name",
                "Type",
                "Price(s)",
                view.tab === "active" ? "Date Created" : "Created",
                view.tab === "archived" && "Archived",
              ]}
            />
            <tbody>
              {view.products.map((product) => (
                <tr key={product.id} className="border-t border-slate-200 dark:border-slate-800">
                  <th scope="row" className="py-2 pr-3 font-medium">
                    {product.name}
                  </th>
                  <td className="py-2 pr-3">{product.type}</td>
                  <td className="py-2 pr-3">{product.price}</td>
                  <td className="py-2 pr-3">{day(product.created)}</td>
                  {view.tab === "archived" ? (
                    <td className="py-2">{day(product.updated)}</td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {!loading && view.nextCursor ? (
          <p className="p-3 text-center">
            <Link
              to={tabUrl(view.tab, view.nextCursor)}
              preventScrollReset
              replace
              className="text-sm font-medium text-brand hover:underline"
            >
              More products
            </Link>
          </p>
        ) : null}
      </div>
    </section>
  );
}
