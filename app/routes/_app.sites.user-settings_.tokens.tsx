import { useForm } from "@conform-to/react";
import { IntentForm } from "~/components/ui/intent-form";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { SubpageHeader } from "~/components/user-settings/subpage-header";
import { urlWith } from "~/components/shell/shell-helpers";
import { ApiTokenList, NewTokenPanel } from "~/components/user-settings/api-tokens";
import { Button } from "~/components/ui/button";
import { Field, FieldError, SelectField } from "~/components/ui/field";
import {
  createTokenSchema,
  MAX_ACTIVE_TOKENS,
  TOKEN_LIFETIME_DAYS,
  tokenIdSchema,
} from "~/services/accounts";
import { createApiToken, listApiTokens, revokeApiToken } from "~/services/accounts/index.server";
import { ServiceError, InvalidError } from "~/services/core";
import { listProjects } from "~/services/projects/index.server";
import { dispatchIntent } from "~/web/intents.server";
import { requireRecentProof, stashedForm } from "~/web/proof.server";
import { requireUser } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { useIsPending } from "~/utils/use-is-pending";

export const meta: MetaFunction = () => [{ title: "API tokens | User Settings | StackShift" }];

const PAGE = "/sites/user-settings/tokens";
export const TOKEN_INTENTS = { create: "token-create", revoke: "token-revoke" } as const;
const I = TOKEN_INTENTS;

/**
 * /sites/user-settings/tokens: the person's personal access tokens for the JSON API (decision
 * 028): make one (shown once), see when each was made, last used and ends, revoke one.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [tokens, projects, typed] = await Promise.all([
    listApiTokens(user),
    // The projects a token may be limited to: the person's own and those they are a member of.
    listProjects(user, { limit: 100, scope: "mine" }),
    // What the form had typed before /auth/confirm asked for a proof (app/web/proof.server.ts).
    stashedForm(request, I.create),
  ]);
  const revoke = new URL(request.url).searchParams.get("revoke");
  return {
    tokens,
    projects: projects.data.map((p) => ({ id: p.id, name: p.name })),
    revoking: tokens.find((t) => t.id === revoke && t.state === "active") ?? null,
    typed,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return dispatchIntent(
    request,
    {
      [I.create]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: createTokenSchema });
        if (submission.status !== "success") {
          return reply({ result: submission.reply(), created: null }, 400);
        }
        // A token outlives the session that makes it: a recent proof first (decision 039).
        await requireRecentProof(request, user, { formData });
        try {
          const { token } = await createApiToken(user, submission.value, new Date(), {
            clientIp: context.clientIp ?? "unknown",
          });
          // Shown in this answer only: a reload or a later visit never shows it again.
          return reply({
            result: submission.reply({ resetForm: true }),
            created: { name: submission.value.name, token },
          });
        } catch (error) {
          if (!(error instanceof ServiceError)) throw error;
          const fieldErrors = error instanceof InvalidError ? error.fieldErrors : {};
          return reply(
            {
              result: submission.reply(
                Object.keys(fieldErrors).length ? { fieldErrors } : { formErrors: [error.message] },
              ),
              created: null,
            },
            error,
          );
        }
      },
      [I.revoke]: async ({ formData, reply }) => {
        const submission = parseWithZod(formData, { schema: tokenIdSchema });
        if (submission.status !== "success") {
          return reply({ result: submission.reply(), created: null }, 400);
        }
        try {
          const { name } = await revokeApiToken(user, submission.value.tokenId);
          return redirectWithToast(PAGE, {
            type: "success",
            title: "Token revoked",
            description: `Scripts using ${name} are refused from now on.`,
          });
        } catch (error) {
          if (!(error instanceof ServiceError)) throw error;
          return redirectWithToast(PAGE, { type: "error", title: error.message });
        }
      },
    },
    { maxBytes: 16 * 1024 },
  );
}

export default function ApiTokensPage() {
  const { tokens, projects, revoking, typed } = useLoaderData<typeof loader>();
  const typedText = (name: string) => (typeof typed?.[name] === "string" ? typed[name] : undefined);
  const typedProjects = [typed?.projectIds ?? []].flat();
  const scope = typedText("scope") ?? "read";
  const actionData = useActionData<typeof action>();
  const created = actionData && "created" in actionData ? actionData.created : null;
  const location = useLocation();
  const navigate = useNavigate();
  const back = urlWith(location.pathname, location.search, { revoke: null });
  const creating = useIsPending({ intent: I.create });
  const [form, fields] = useForm({
    id: I.create,
    lastResult: created || actionData?.form !== I.create ? null : actionData.result,
    defaultValue: { name: typedText("name") },
    constraint: getZodConstraint(createTokenSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createTokenSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <article className="space-y-8">
      <SubpageHeader title="API tokens">
        A token lets a script or a CI pipeline call the StackShift API as you, with{" "}
        <code>Authorization: Bearer &lt;token&gt;</code>. It never has more rights than you have on
        a project. The API is described at{" "}
        <a href="/api/openapi.json" className="text-brand underline">
          /api/openapi.json
        </a>
        .
      </SubpageHeader>

      {created ? <NewTokenPanel name={created.name} token={created.token} /> : null}

      <section
        aria-labelledby="new-token-heading"
        className="max-w-2xl space-y-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
      >
        <h2 id="new-token-heading" className="text-lg font-semibold">
          New token
        </h2>
        <IntentForm form={form} className="space-y-4">
          <Field
            label="Name"
            hint="What uses it, e.g. 'Deploys from GitHub Actions'."
            field={fields.name}
            autoComplete="off"
          />
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">What it may do</legend>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="scope"
                value="read"
                defaultChecked={scope === "read"}
                required
              />
              Read only: list and read projects, deployments, forms
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="scope"
                value="read-write"
                defaultChecked={scope === "read-write"}
              />
              Read and write: also create projects, deploy, invite, change settings
            </label>
            <FieldError id="scope-error" errors={fields.scope.errors} />
          </fieldset>
          <SelectField
            label="Expires"
            name="lifetimeDays"
            defaultValue={typedText("lifetimeDays") ?? "30"}
            errors={fields.lifetimeDays.errors}
          >
            {TOKEN_LIFETIME_DAYS.map((days) => (
              <option key={days} value={days}>
                {days === 365 ? "In a year" : `In ${days} days`}
              </option>
            ))}
          </SelectField>
          {projects.length ? (
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">Projects (optional)</legend>
              <p className="text-xs text-slate-500">
                Choose none for every project you can reach, or limit the token to some.
              </p>
              <div className="max-h-48 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2 dark:border-slate-800">
                {projects.map((p) => (
                  <label key={p.id} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      name="projectIds"
                      value={p.id}
                      defaultChecked={typedProjects.includes(p.id)}
                    />
                    {p.name}
                  </label>
                ))}
              </div>
              <FieldError id="projectIds-error" errors={fields.projectIds.errors} />
            </fieldset>
          ) : null}
          <Button type="submit" disabled={creating}>
            {creating ? "Making the token..." : "Make token"}
          </Button>
          <p className="text-xs text-slate-500">
            Up to {MAX_ACTIVE_TOKENS} active tokens. Each is shown once: keep it in your CI&apos;s
            secret store.
          </p>
        </IntentForm>
      </section>

      <ApiTokenList
        tokens={tokens}
        revoking={revoking}
        revokeIntent={I.revoke}
        revokeHref={(id) => urlWith(location.pathname, location.search, { revoke: id })}
        back={back}
        onClose={() => navigate(back, { replace: true, preventScrollReset: true })}
      />
    </article>
  );
}
