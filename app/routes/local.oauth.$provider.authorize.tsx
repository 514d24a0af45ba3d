import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { issueLocalCode } from "~/providers/local-oauth.server";
import { stripeConnectRedirectUri } from "~/providers/payments/index.server";
import { instagramRedirectUri } from "~/providers/social/index.server";
import { INSTAGRAM_SCOPES } from "~/providers/social/types";
import { formReply, readForm, requireLocalProviders } from "~/web/http.server";
import { invariantResponse } from "~/utils/responses.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.vendor} (local) - Authorize StackShift` : "Authorize StackShift" },
  { name: "robots", content: "noindex" },
];

/** The two local vendors: their client id, where codes may go back to, and what they grant. */
const VENDORS = {
  instagram: {
    vendor: "Instagram",
    clientId: "local-instagram",
    redirectUri: instagramRedirectUri,
    scopes: [...INSTAGRAM_SCOPES],
  },
  stripe: {
    vendor: "Stripe",
    clientId: "ca_local",
    redirectUri: stripeConnectRedirectUri,
    scopes: ["read_write"],
  },
} as const;
type VendorName = keyof typeof VENDORS;

/**
 * The request a real vendor would check: our client id, our own return page (so this page is no
 * open redirect) and a state to send back.
 */
function authorizationRequest(request: Request, provider: string | undefined) {
  requireLocalProviders();
  invariantResponse(provider === "instagram" || provider === "stripe", "Not Found");
  const vendor = VENDORS[provider];
  const search = new URL(request.url).searchParams;
  const state = search.get("state") ?? "";
  invariantResponse(
    search.get("response_type") === "code" &&
      search.get("client_id") === vendor.clientId &&
      search.get("redirect_uri") === vendor.redirectUri() &&
      state.length > 0 &&
      state.length <= 300,
    "Invalid authorization request",
    { status: 400 },
  );
  return { provider: provider as VendorName, vendor, state, redirectUri: vendor.redirectUri() };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { provider, vendor } = authorizationRequest(request, params.provider);
  const scopes: readonly string[] = vendor.scopes;
  const suffix = randomBytes(3).toString("hex");
  return {
    provider,
    vendor: vendor.vendor,
    scopes,
    defaults:
      provider === "instagram"
        ? { userName: `studio.${suffix}`, profileName: "Local Studio" }
        : { accountId: `acct_local${suffix}${suffix}`, accountName: "Local business" },
  };
}

const grantSchemas = {
  instagram: z.object({
    userName: z
      .string({ error: "User name is required" })
      .trim()
      .regex(/^[A-Za-z0-9._]{1,30}$/, "Letters, digits, periods and underscores, at most 30"),
    profileName: z.string().trim().max(100, "At most 100 characters").optional(),
  }),
  stripe: z.object({
    accountId: z
      .string({ error: "Account id is required" })
      .trim()
      .regex(/^acct_[A-Za-z0-9]{6,40}$/, "An account id is acct_ and 6 to 40 letters or digits"),
    accountName: z.string().trim().max(100, "At most 100 characters").optional(),
  }),
};

/** Authorize: back to the return page with a code for the account typed here. Cancel: denied. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { provider, state, redirectUri } = authorizationRequest(request, params.provider);
  const formData = await readForm(request, 8 * 1024);
  const back = new URL(redirectUri);
  back.searchParams.set("state", state);
  if (formData.get("decision") === "deny") {
    back.searchParams.set("error", "access_denied");
    back.searchParams.set("error_description", "The user denied your request.");
    return redirect(back.toString());
  }
  const submission = parseWithZod(formData, { schema: grantSchemas[provider] });
  if (submission.status !== "success") {
    return formReply({ result: submission.reply() }, 400);
  }
  const claims = Object.fromEntries(
    Object.entries(submission.value).filter((entry): entry is [string, string] =>
      Boolean(entry[1]),
    ),
  );
  back.searchParams.set("code", issueLocalCode(provider, { ...claims, redirectUri }));
  // Instagram appends '#_' to the address it sends back; so does its stand-in.
  return redirect(provider === "instagram" ? `${back.toString()}#_` : back.toString());
}

export default function LocalAuthorize() {
  const { provider, vendor, scopes, defaults } = useLoaderData<typeof loader>();
  const errors = useActionData<typeof action>()?.result.error ?? {};
  const busy = useIsPending();
  return (
    <main className="mx-auto max-w-md space-y-6 px-4 py-12">
      <div className="space-y-2">
        <p className="text-sm font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">
          {vendor} (local provider)
        </p>
        <h1 className="text-2xl font-semibold">Authorize StackShift</h1>
        <p className="text-slate-600 dark:text-slate-300">
          StackShift asks for access to your {vendor} account:
        </p>
        <ul className="list-inside list-disc text-sm text-slate-600 dark:text-slate-300">
          {scopes.map((scope) => (
            <li key={scope}>
              <code>{scope}</code>
            </li>
          ))}
        </ul>
      </div>
      {/* The vendor's consent page as the local provider plays it, not a dashboard form: it
          answers the way the vendor does, so conform's checks would hide the refusals it demos. */}
      {/* eslint-disable-next-line no-restricted-syntax */}
      <Form method="post" className="space-y-4">
        {provider === "instagram" ? (
          <>
            <Field
              label="Instagram user name"
              name="userName"
              defaultValue={defaults.userName}
              autoComplete="off"
              errors={errors.userName}
              hint="A user name containing 'taken' is answered as already linked elsewhere."
            />
            <Field
              label="Profile name"
              name="profileName"
              defaultValue={defaults.profileName}
              errors={errors.profileName}
            />
          </>
        ) : (
          <>
            <Field
              label="Stripe account id"
              name="accountId"
              defaultValue={defaults.accountId}
              autoComplete="off"
              errors={errors.accountId}
              hint="Connecting the same account id twice to a project is answered as already linked."
            />
            <Field
              label="Business name"
              name="accountName"
              defaultValue={defaults.accountName}
              errors={errors.accountName}
            />
          </>
        )}
        {/* Authorize comes first, so Enter in a field authorizes; it is shown last. */}
        <div className="flex flex-row-reverse justify-start gap-3">
          <Button type="submit" name="decision" value="authorize" disabled={busy}>
            Authorize
          </Button>
          <Button type="submit" name="decision" value="deny" variant="secondary" disabled={busy}>
            Cancel
          </Button>
        </div>
      </Form>
    </main>
  );
}
