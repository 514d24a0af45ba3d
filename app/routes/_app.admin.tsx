import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { SearchBox } from "~/components/lists/search-box";
import { DecisionDialog, type DecisionKind } from "~/components/access-requests/decision-dialog";
import { toRequestCard, type RequestCardView } from "~/components/access-requests/format";
import { RequestCard } from "~/components/access-requests/request-card";
import { ButtonLink, buttonClass } from "~/components/ui/button";
import { FormError } from "~/components/ui/field";
import { Spinner } from "~/components/ui/spinner";
import { decisionSchema, listQuerySchema } from "~/services/platform";
import {
  decideAccessRequest,
  getAccessRequest,
  listAccessRequests,
} from "~/services/platform/index.server";
import { ServiceError } from "~/services/core";
import { formErrorOf } from "~/utils/form-errors";
import { formReply, readForm } from "~/web/http.server";
import { requirePlatformAdmin } from "~/web/session.server";
import { getTimeZone } from "~/utils/time-zone.server";
import { redirectWithToast } from "~/utils/toast.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "Manage Requests | StackShift" }];

/** The page's URL for a search, a page and optionally an open confirm dialog. */
function adminHref(params: {
  q?: string;
  cursor?: string | null;
  approve?: string;
  reject?: string;
}) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `/admin?${text}` : "/admin";
}

function listParamsOf(url: URL) {
  return listQuerySchema.parse({
    q: url.searchParams.get("q") ?? undefined,
    cursor: url.searchParams.get("cursor") ?? undefined,
  });
}

/** ?approve={id} or ?reject={id}: the confirm dialog to render (ignored unless a uuid). */
function dialogOf(url: URL): { kind: DecisionKind; id: string } | null {
  for (const kind of ["approve", "reject"] as const) {
    const parsed = decisionSchema.shape.id.safeParse(url.searchParams.get(kind));
    if (parsed.success) return { kind, id: parsed.data };
  }
  return null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requirePlatformAdmin(request);
  const url = new URL(request.url);
  const { q, cursor } = listParamsOf(url);
  const dialog = dialogOf(url);
  const [page, target] = await Promise.all([
    listAccessRequests({ q, cursor }),
    dialog ? getAccessRequest(dialog.id) : null,
  ]);
  const now = new Date();
  const timeZone = getTimeZone(request);
  return {
    q,
    cursor: cursor ?? null,
    items: page.items.map((row) => toRequestCard(row, now, timeZone)),
    nextCursor: page.nextCursor,
    // Only Pending requests can be decided (a decision is final), so only they open a dialog.
    dialog:
      dialog && target?.requestStatus === "Pending"
        ? { kind: dialog.kind, request: { id: target.id, fullName: target.fullName } }
        : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requirePlatformAdmin(request);
  const submission = parseWithZod(await readForm(request), { schema: decisionSchema });
  if (submission.status !== "success") {
    return formReply(
      { result: submission.reply({ formErrors: ["Choose a request to approve or reject."] }) },
      400,
    );
  }
  const { intent, id } = submission.value;
  try {
    const row = await decideAccessRequest(
      id,
      intent === "approve" ? "Approved" : "Rejected",
      admin.id,
    );
    const { q, cursor } = listParamsOf(new URL(request.url));
    return redirectWithToast(adminHref({ q, cursor }), {
      type: "success",
      title: intent === "approve" ? "Request approved" : "Request rejected",
      description:
        intent === "approve"
          ? `We emailed ${row.businessEmail} a link to sign up.`
          : `We let ${row.businessEmail} know.`,
    });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return formReply({ result: submission.reply({ formErrors: [error.message] }) }, error);
  }
}

export default function ManageRequests() {
  const { q, cursor, items, nextCursor, dialog } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const decisionError = formErrorOf(actionData?.result);
  const busy = useIsPending({ intent: dialog?.kind, state: "submitting" });
  const cardHrefs = (id: string) => ({
    approveHref: adminHref({ q, cursor, approve: id }),
    rejectHref: adminHref({ q, cursor, reject: id }),
  });

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Manage Request for Access</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            Requests for access to our StackShift. An email has been sent to them waiting for our
            approval.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <ButtonLink to="/admin/tokens" variant="secondary">
            Revoke a leaked API token
          </ButtonLink>
          <ButtonLink to="/" variant="secondary">
            Go Back
          </ButtonLink>
        </div>
      </div>

      <SearchBox
        id="request-search"
        query={q}
        label="Search requests"
        placeholder="Enter a keyword to search..."
      />

      {decisionError && !dialog ? <FormError message={decisionError} /> : null}

      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:border-slate-700 dark:text-slate-300">
          {q
            ? `No requests match "${q}".`
            : cursor
              ? "No more requests."
              : "Nothing to show here yet..."}
        </p>
      ) : (
        <RequestList items={items} hrefs={cardHrefs} />
      )}

      <div className="flex flex-col items-center gap-3">
        {nextCursor ? (
          // Keyed by the search: a new search starts the appended pages over.
          <LoadMore key={`${q}|${cursor}`} q={q} cursor={nextCursor} hrefs={cardHrefs} />
        ) : null}
        {cursor ? (
          <Link to={adminHref({ q })} className="text-sm text-brand underline">
            Back to the newest requests
          </Link>
        ) : null}
      </div>

      {dialog ? (
        <DecisionDialog
          kind={dialog.kind}
          request={dialog.request}
          closeHref={adminHref({ q, cursor })}
          formAction={adminHref({ q, cursor })}
          busy={busy}
          error={decisionError}
        />
      ) : null}
    </div>
  );
}

type Hrefs = (id: string) => { approveHref: string; rejectHref: string };

function RequestList({ items, hrefs }: { items: RequestCardView[]; hrefs: Hrefs }) {
  return (
    <ul className="space-y-4">
      {items.map((item) => (
        <li key={item.id}>
          <RequestCard request={item} {...hrefs(item.id)} />
        </li>
      ))}
    </ul>
  );
}

/**
 * Without JavaScript, "Load more" is a link to the next page (?cursor=). With JavaScript it
 * appends that page below the current one. Each appended page has its own fetcher, so after an
 * approval Remix revalidates every page with its own cursor and the list stays consistent.
 */
function LoadMore({ q, cursor, hrefs }: { q: string; cursor: string; hrefs: Hrefs }) {
  const [open, setOpen] = useState(false);
  if (open) return <MoreRequests q={q} cursor={cursor} hrefs={hrefs} />;
  return (
    <Link
      to={adminHref({ q, cursor })}
      className={buttonClass("secondary")}
      onClick={(event) => {
        event.preventDefault();
        setOpen(true);
      }}
    >
      Load more
    </Link>
  );
}

function MoreRequests({ q, cursor, hrefs }: { q: string; cursor: string; hrefs: Hrefs }) {
  const fetcher = useFetcher<typeof loader>();
  const load = useRef(fetcher.load);
  useEffect(() => {
    load.current(adminHref({ q, cursor }));
  }, [q, cursor]);
  if (!fetcher.data) return <Spinner label="Loading more requests" />;
  const { items, nextCursor } = fetcher.data;
  return (
    <div className="w-full space-y-4">
      <RequestList items={items} hrefs={hrefs} />
      <div className="flex justify-center">
        {nextCursor ? <LoadMore q={q} cursor={nextCursor} hrefs={hrefs} /> : null}
      </div>
    </div>
  );
}
