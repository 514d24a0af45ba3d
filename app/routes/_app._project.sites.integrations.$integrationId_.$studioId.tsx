import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import {
  PAYMENT_ADD_INTENT,
  PAYMENT_REMOVE_INTENT,
  PaymentAccounts,
  STRIPE_CONNECT_INTENT,
} from "~/components/payments/payment-accounts";
import { ProductViewer } from "~/components/payments/product-viewer";
import { NotFoundError, RateLimitedError, ServiceError, UpstreamError } from "~/services/core";
import { integrationBySlug } from "~/services/integrations";
import {
  addPaymentAccountSchema,
  PAYMENT_MESSAGES,
  removePaymentAccountSchema,
} from "~/services/integrations";
import {
  addPaymentAccount,
  InvalidPaymentKeyError,
  listAccountProducts,
  listPaymentAccounts,
  removePaymentAccount,
  startStripeConnect,
} from "~/services/integrations/index.server";
import { dispatchIntent } from "~/web/intents.server";
import { notFound } from "~/utils/responses.server";
import { getSession, requireUser } from "~/web/session.server";
import { redirect } from "@remix-run/node";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Stripe | ${data.view.projectName} | StackShift` : "StackShift" },
];

/** Only the payments integration has a per-project page so far. */
function requirePayments(integrationId: string | undefined) {
  if (integrationBySlug(integrationId)?.slug !== "payments") notFound();
}

/**
 * /sites/integrations/payments/{studioId}: the project's Stripe accounts (Configure on the
 * payments integration leads here). Its viewers read; those who may manage payments add.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  requirePayments(params.integrationId);
  const url = new URL(request.url);
  const productsOf = url.searchParams.get("products");
  try {
    const view = await listPaymentAccounts(user, params.studioId ?? "");
    // The product viewer, when an account's products are asked for: only the chosen tab is read.
    const shown = productsOf ? view.accounts.find((a) => a.id === productsOf) : undefined;
    const products = shown
      ? await listAccountProducts(user, view.studioId, shown.id, {
          tab: url.searchParams.get("tab") === "archived" ? "archived" : "active",
          startingAfter: url.searchParams.get("after")?.slice(0, 200) || undefined,
        })
      : null;
    return { view, products };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}

/**
 * 'Add account' and Remove. Added: 'Stripe Secret Key Valid: Account Added'; a key Stripe
 * refuses: 'Stripe Secret Key Invalid: Account Not Added'; other failures 'Failed to add Stripe
 * account!' / 'Failed to remove Stripe account from StackShift'. Bad fields, and too many keys
 * checked, keep the dialog open with their messages.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  requirePayments(params.integrationId);
  const studioId = params.studioId ?? "";
  const page = `/sites/integrations/payments/${encodeURIComponent(studioId)}`;
  return dispatchIntent(
    request,
    {
      [PAYMENT_ADD_INTENT]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: addPaymentAccountSchema });
        if (submission.status !== "success") {
          return reply({ result: submission.reply({ hideFields: ["secretKey"] }) }, 400);
        }
        try {
          await addPaymentAccount(user, studioId, submission.value);
          return redirectWithToast(page, { type: "success", title: PAYMENT_MESSAGES.added });
        } catch (error) {
          if (error instanceof NotFoundError) notFound();
          if (error instanceof InvalidPaymentKeyError) {
            return redirectWithToast(page, { type: "error", title: PAYMENT_MESSAGES.invalidKey });
          }
          // Too many keys checked: said beside the key field, the dialog kept open (429,
          // Retry-After).
          if (error instanceof RateLimitedError) {
            const result = submission.reply({
              fieldErrors: { secretKey: [error.message] },
              hideFields: ["secretKey"],
            });
            return reply({ result }, error);
          }
          if (!(error instanceof ServiceError)) throw error;
          // A duplicate or a refusal says why under the title; Stripe not answering is the title
          // alone (the service's UpstreamError says nothing more).
          return redirectWithToast(page, {
            type: "error",
            title: PAYMENT_MESSAGES.failedAdd,
            description: error instanceof UpstreamError ? undefined : error.message,
          });
        }
      },
      [STRIPE_CONNECT_INTENT]: async ({ formData }) => {
        const session = await getSession(request);
        try {
          return redirect(
            await startStripeConnect(user, studioId, {
              id: session.id ?? "",
              mode: formData.get("mode") === "popup" ? "popup" : "tab",
            }),
          );
        } catch (error) {
          if (error instanceof NotFoundError) notFound();
          if (!(error instanceof ServiceError)) throw error;
          return redirectWithToast(page, { type: "error", title: error.message });
        }
      },
      [PAYMENT_REMOVE_INTENT]: async ({ formData }) => {
        const submission = parseWithZod(formData, { schema: removePaymentAccountSchema });
        if (submission.status !== "success") throw new NotFoundError("Unknown account");
        await removePaymentAccount(user, studioId, { id: submission.value.accountId });
        return redirectWithToast(page, { type: "success", title: PAYMENT_MESSAGES.removed });
      },
    },
    {
      maxBytes: 8 * 1024,
      // Removing: a project hidden from the user is the dispatcher's 404; a refusal on a visible
      // one is a toast.
      onError: () =>
        redirectWithToast(page, { type: "error", title: PAYMENT_MESSAGES.failedRemove }),
    },
  );
}

export default function ProjectPayments() {
  const { view, products } = useLoaderData<typeof loader>();
  return (
    <article className="space-y-6">
      <div>
        <Link to="/sites/integrations/payments" className="text-sm text-brand hover:underline">
          Stripe
        </Link>
        <h1 className="mt-1 text-2xl font-semibold">Stripe for {view.projectName}</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-300">
          Connect your Stripe account to start accepting form payments.{" "}
          <Link to={`/sites/${view.studioId}`} className="text-brand underline">
            Back to the project
          </Link>
        </p>
      </div>
      <PaymentAccounts view={view} />
      {products ? <ProductViewer view={products} /> : null}
    </article>
  );
}
