import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { overlayShouldRevalidate, urlWith } from "~/components/shell/shell-helpers";
import {
  NEW_TICKET_DIALOG,
  NewTicketDialog,
  TICKET_CREATE_INTENT,
} from "~/components/support/new-ticket-dialog";
import { TicketList } from "~/components/support/ticket-list";
import { buttonClass } from "~/components/ui/button";
import { InvalidError } from "~/services/core";
import { supportDesk, ticketProjectChoices } from "~/services/support-desk/index.server";
import { newTicketSchema, SUPPORT_MESSAGES } from "~/services/support-desk";
import { listParams } from "~/web/list-query";
import { dispatchIntent } from "~/web/intents.server";
import { requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Support | StackShift" }];

/**
 * /sites/support: the user's tickets (every ticket for platform admins), newest activity first;
 * ?q= searches the subjects, ?after= reads older ones; ?dialog=new-ticket opens 'New ticket'.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { query, cursor } = listParams(new URL(request.url).searchParams, { cursor: "after" });
  const [page, projects] = await Promise.all([
    supportDesk().listTickets(user, { after: cursor ?? undefined, q: query }),
    ticketProjectChoices(user),
  ]);
  return { page, projects, now: new Date().toISOString() };
}

// Opening or closing the dialog changes nothing the loader returns.
export const shouldRevalidate = overlayShouldRevalidate;

/** 'Create ticket': to the new ticket's page; bad fields keep the dialog open with messages. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return dispatchIntent(
    request,
    {
      [TICKET_CREATE_INTENT]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: newTicketSchema });
        if (submission.status !== "success") return reply({ result: submission.reply() }, 400);
        try {
          const { id } = await supportDesk().createTicket(user, submission.value);
          return redirectWithToast(`/sites/support/${id}`, {
            type: "success",
            title: SUPPORT_MESSAGES.created,
          });
        } catch (error) {
          if (!(error instanceof InvalidError)) throw error;
          return reply({ result: submission.reply({ fieldErrors: error.fieldErrors }) }, error);
        }
      },
    },
    { maxBytes: 96 * 1024 },
  );
}

export default function SupportPage() {
  const { page, projects, now } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const back = urlWith(location.pathname, location.search, { dialog: null, index: null });
  const close = () => navigate(back, { replace: true, preventScrollReset: true });
  return (
    <article className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold">Support</h1>
          <p className="text-slate-600 dark:text-slate-300">
            Ask the StackShift support team for help, and follow their answers.
          </p>
        </div>
        <Link
          to={urlWith(location.pathname, location.search, {
            dialog: NEW_TICKET_DIALOG,
            index: null,
          })}
          preventScrollReset
          className={buttonClass("primary")}
        >
          New ticket
        </Link>
      </header>
      <TicketList page={page} now={now} />
      {searchParams.get("dialog") === NEW_TICKET_DIALOG ? (
        <NewTicketDialog projects={projects} back={back} onClose={close} />
      ) : null}
    </article>
  );
}
