import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { SearchBox } from "~/components/lists/search-box";
import { useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { Badge } from "~/components/ui/badge";
import { listQuerySchema } from "~/services/platform";
import { listOutbox, outboxPageEnabled, redact } from "~/services/core/index.server";
import { invariantResponse } from "~/utils/responses.server";
import { requirePlatformAdmin } from "~/web/session.server";
import { formatDate } from "~/utils/dates";
import { getTimeZone } from "~/utils/time-zone.server";
import { TableHead } from "~/components/ui/table-head";

export const meta: MetaFunction = () => [{ title: "Outbox | StackShift" }];

const LIMIT = 200;

/**
 * The development outbox (without SMTP_URL mail is kept here, docs/configuration.md), for
 * platform admins.
 * It does not exist once mail is really delivered or in production mode, and delivered mails hold
 * no usable token (app/services/core/mail.server.ts redacts them; this page redacts queued ones too).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requirePlatformAdmin(request);
  invariantResponse(outboxPageEnabled(), "Not Found");
  const { q } = listQuerySchema.parse({
    q: new URL(request.url).searchParams.get("q") ?? undefined,
  });
  const rows = await listOutbox(LIMIT, q || undefined);
  const timeZone = getTimeZone(request);
  return {
    q,
    limit: LIMIT,
    mails: rows.map((m) => ({
      id: m.id,
      to: m.to,
      subject: m.subject,
      status: m.status,
      // A mail still queued holds its tokens until its job runs: another person's reset or
      // confirmation link is never shown here, whatever its state.
      text: redact(m.text, m.secrets),
      createdIso: m.createdAt.toISOString(),
      // Formatted on the server, in the admin's zone, so the hydrated page shows the same text.
      created: formatDate(m.createdAt, timeZone, "timestamp"),
    })),
  };
}

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

/** Splits text into plain parts and http(s) links; trailing punctuation stays outside a link. */
export function splitLinks(text: string): { text: string; href?: string }[] {
  const parts: { text: string; href?: string }[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const href = match[0].replace(/[.,;:!?)\]]+$/, "");
    const start = match.index ?? 0;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ text: href, href });
    last = start + href.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

export function TextWithLinks({ text }: { text: string }) {
  return (
    <>
      {splitLinks(text).map((part, i) =>
        part.href ? (
          <a key={i} href={part.href} className="break-all text-brand underline">
            {part.text}
          </a>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}

const STATUS_TONE = { queued: "blue", sent: "green", kept: "gray", failed: "red" } as const;

export default function Outbox() {
  const { q, mails, limit } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Outbox</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          Development only: this page exists because no SMTP_URL is set and the server is not in
          production mode. Every e-mail the dashboard kept, newest first (at most {limit}). Links
          with tokens (confirmations, password resets, invitations) are removed once a mail is
          delivered; the server log prints them.
        </p>
      </div>
      <SearchBox
        id="outbox-search"
        query={q}
        label="Search by recipient or subject"
        placeholder="Search by recipient or subject"
      />
      {mails.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-slate-600 dark:border-slate-700 dark:text-slate-300">
          {q ? `No e-mails match "${q}".` : "Nothing to show here yet..."}
        </p>
      ) : (
        <div className="relative overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
          <table className="min-w-full divide-y divide-slate-200 text-left text-sm dark:divide-slate-800">
            <caption className="sr-only">Outgoing e-mails, newest first</caption>
            <TableHead
              className="bg-slate-50 dark:bg-slate-900"
              cellClassName="px-4 py-2"
              columns={["To", "Subject", "Status", "Created"]}
            />
            <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
              {mails.map((mail) => (
                <tr key={mail.id} className="align-top">
                  <td className="whitespace-nowrap px-4 py-2">{mail.to}</td>
                  <td className="px-4 py-2">
                    <details>
                      <summary className="cursor-pointer">{mail.subject}</summary>
                      <pre className="mt-2 max-w-2xl whitespace-pre-wrap break-words font-sans text-slate-700 dark:text-slate-200">
                        <TextWithLinks text={mail.text} />
                      </pre>
                    </details>
                  </td>
                  <td className="px-4 py-2">
                    <Badge tone={STATUS_TONE[mail.status]}>{mail.status}</Badge>
                  </td>
                  <td className="whitespace-nowrap px-4 py-2">
                    <time dateTime={mail.createdIso}>{mail.created}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
