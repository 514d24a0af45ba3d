import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  ALL_EVENTS,
  TICKET_COMMENT_INTENT,
  TICKET_STATUS_INTENT,
  TicketView,
} from "~/components/support/ticket-view";
import { ForbiddenError, NotFoundError } from "~/services/core";
import { supportDesk } from "~/services/support-desk/index.server";
import {
  commentSchema,
  STATUS_LABEL,
  statusSchema,
  SUPPORT_MESSAGES,
} from "~/services/support-desk";
import { dispatchIntent } from "~/web/intents.server";
import { notFound } from "~/utils/responses.server";
import { requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.ticket.subject} | Support | StackShift` : "Support | StackShift" },
];

/**
 * /sites/support/{ticketId}: one ticket for its requester, the people who may view its project
 * and platform admins; a 404 for anyone else, as for a ticket that does not exist. ?events=all
 * lists every event instead of the latest three.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const allEvents = new URL(request.url).searchParams.get("events") === ALL_EVENTS;
  try {
    const ticket = await supportDesk().getTicket(user, params.ticketId ?? "", { allEvents });
    return { ticket, allEvents, now: new Date().toISOString() };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}

/** A reply, and (platform admins) a status change; a refusal is a toast, a hidden ticket a 404. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const ticketId = params.ticketId ?? "";
  const expanded = new URL(request.url).searchParams.get("events") === ALL_EVENTS;
  const page = `/sites/support/${encodeURIComponent(ticketId)}${expanded ? `?events=${ALL_EVENTS}` : ""}`;
  return dispatchIntent(
    request,
    {
      [TICKET_COMMENT_INTENT]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: commentSchema });
        if (submission.status !== "success") return reply({ result: submission.reply() }, 400);
        await supportDesk().addComment(user, ticketId, submission.value.body);
        return redirectWithToast(page, { type: "success", title: SUPPORT_MESSAGES.replied });
      },
      [TICKET_STATUS_INTENT]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: statusSchema });
        if (submission.status !== "success") return reply({ result: submission.reply() }, 400);
        const { status } = submission.value;
        const changed = await supportDesk().changeStatus(user, ticketId, status);
        return redirectWithToast(
          page,
          changed
            ? {
                type: "success",
                title: SUPPORT_MESSAGES.statusChanged,
                description: `The ticket is now ${STATUS_LABEL[status]}.`,
              }
            : { type: "info", title: SUPPORT_MESSAGES.statusUnchanged },
        );
      },
    },
    {
      maxBytes: 64 * 1024,
      onError: (error) => {
        if (error instanceof NotFoundError) notFound();
        if (!(error instanceof ForbiddenError)) throw error;
        return redirectWithToast(page, {
          type: "error",
          title: SUPPORT_MESSAGES.statusFailed,
          description: error.message,
        });
      },
    },
  );
}

export default function TicketPage() {
  const { ticket, allEvents, now } = useLoaderData<typeof loader>();
  return <TicketView ticket={ticket} allEvents={allEvents} now={now} />;
}
