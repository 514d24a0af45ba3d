import { getCollectionProps } from "@conform-to/react";
import { Form, Link, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { LocalDate } from "~/components/local-date";
import { urlWith } from "~/components/shell/shell-helpers";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClass } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { CopyButton } from "~/components/ui/copy-button";
import { Field, FieldError, SelectField } from "~/components/ui/field";
import { IntentForm } from "~/components/ui/intent-form";
import { TableHead } from "~/components/ui/table-head";
import { useIntentForm } from "~/components/ui/use-intent-form";
import { EVENT_CATALOG, PROJECT_EVENT_TYPES } from "~/services/events";
import { webhookInputSchema } from "~/services/webhooks";
import type { DeliveryView, WebhookView } from "~/services/webhooks/index.server";
import { useIsPending } from "~/utils/use-is-pending";
import { REMOVE_PARAM, WEBHOOK_INTENTS as I } from "./intents";

type Hook = WebhookView & { deliveries: DeliveryView[] };

/** The catalogue's events grouped by what they are about (the part of the type before the dot). */
const GROUPS: { prefix: string; label: string }[] = [
  { prefix: "deployment", label: "Deployments" },
  { prefix: "domain", label: "Custom domains" },
  { prefix: "member", label: "Members" },
  { prefix: "project", label: "Project" },
  { prefix: "support", label: "Support" },
  { prefix: "form", label: "Forms" },
];
const groupOf = (type: string) => type.slice(0, type.indexOf("."));

const FORMAT_LABELS = { standard: "Standard", slack: "Slack" } as const;

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

const VERIFY_SAMPLE = `import { Webhook } from "standardwebhooks";

const wh = new Webhook(process.env.STACKSHIFT_WEBHOOK_SECRET); // "whsec_..."
// body: the raw request body as text; headers: webhook-id, webhook-timestamp, webhook-signature
const event = wh.verify(body, headers); // throws when the signature or timestamp is wrong
console.log(event.type, event.data);`;

/**
 * The project's webhooks: the list (address, events, format, on or switched off, the last
 * delivery), each webhook's delivery log with Redeliver, Switch on and Remove (confirmed in a
 * dialog opened by its address), and the form that adds one, after which its secret is shown
 * this once. docs/decisions/047-project-events-and-webhooks.md.
 */
export function WebhooksPage({
  project,
  webhooks,
  created,
  typed = null,
}: {
  project: { studioId: string; name: string };
  webhooks: Hook[];
  created: { url: string; secret: string } | null;
  /** What the add form had typed before a proof was asked (app/web/proof.server.ts). */
  typed?: Record<string, string | string[]> | null;
}) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const back = urlWith(location.pathname, location.search, { [REMOVE_PARAM]: null });
  const removing = webhooks.find((w) => w.id === searchParams.get(REMOVE_PARAM));
  return (
    <article className="space-y-8">
      <header className="space-y-1">
        <p className="text-sm text-slate-600 dark:text-slate-300">
          <Link
            to={`/sites/settings/${encodeURIComponent(project.studioId)}`}
            className="underline"
          >
            {project.name}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">Webhooks</h1>
        <p className="text-slate-600 dark:text-slate-300">
          Each event you choose is sent to your address as a signed POST (Standard Webhooks), and
          retried for 24 hours until it is answered with a 2xx.
        </p>
      </header>

      {created ? <NewSecretPanel url={created.url} secret={created.secret} /> : null}

      <section aria-labelledby="webhooks-heading" className="space-y-4">
        <h2 id="webhooks-heading" className="text-lg font-semibold">
          Project webhooks
        </h2>
        {webhooks.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            No webhooks yet. Add one below to have this project&apos;s events sent to your tools.
          </p>
        ) : (
          <WebhookTable webhooks={webhooks} />
        )}
      </section>

      {webhooks.map((hook) => (
        <DeliveryLog key={hook.id} hook={hook} />
      ))}

      {/* A new key once the list changes: the form starts empty after an add. */}
      <AddWebhookForm key={webhooks.map((w) => w.id).join()} typed={typed} />

      {removing ? (
        <ConfirmDialog
          title={`Remove the webhook to ${hostOf(removing.url)}`}
          description="No more events are sent to it, and its delivery log is deleted. This cannot be undone."
          intent={I.remove}
          fields={{ webhookId: removing.id }}
          confirmLabel="Yes, remove"
          busyLabel="Removing..."
          back={back}
          onClose={() => navigate(back, { replace: true, preventScrollReset: true })}
        />
      ) : null}
    </article>
  );
}

function WebhookTable({ webhooks }: { webhooks: Hook[] }) {
  const location = useLocation();
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">The project&apos;s webhooks</caption>
        <TableHead columns={["URL", "Events", "Format", "Status", "Last delivery", "Actions"]} />
        <tbody>
          {webhooks.map((hook) => (
            <tr key={hook.id} className="border-t border-slate-200 align-top dark:border-slate-800">
              <td className="py-2 pr-4 break-all font-mono text-xs">{hook.url}</td>
              <td className="py-2 pr-4">
                {hook.events
                  .map((e) => EVENT_CATALOG[e as keyof typeof EVENT_CATALOG]?.label ?? e)
                  .join(", ")}
              </td>
              <td className="py-2 pr-4">{FORMAT_LABELS[hook.format]}</td>
              <td className="py-2 pr-4">
                {hook.enabled ? (
                  <Badge tone="green">On</Badge>
                ) : (
                  <>
                    <Badge tone="red">Switched off</Badge>
                    {hook.disabledReason ? (
                      <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                        {hook.disabledReason}
                      </p>
                    ) : null}
                  </>
                )}
              </td>
              <td className="py-2 pr-4">
                {hook.lastDelivery ? (
                  <>
                    {statusLabel(hook.lastDelivery.status)}
                    {hook.lastDelivery.responseStatus !== null
                      ? ` (HTTP ${hook.lastDelivery.responseStatus})`
                      : ""}
                    , <LocalDate value={hook.lastDelivery.at} style="dateTime" />
                  </>
                ) : (
                  "None yet"
                )}
              </td>
              <td className="py-2">
                <div className="flex flex-wrap gap-2">
                  {hook.enabled ? null : (
                    <Form method="post" replace preventScrollReset>
                      <input type="hidden" name="intent" value={I.enable} />
                      <input type="hidden" name="webhookId" value={hook.id} />
                      <Button type="submit" variant="secondary" className="px-3 py-1">
                        Switch on<span className="sr-only"> the webhook to {hostOf(hook.url)}</span>
                      </Button>
                    </Form>
                  )}
                  <Link
                    to={urlWith(location.pathname, location.search, { [REMOVE_PARAM]: hook.id })}
                    preventScrollReset
                    className={buttonClass("secondary", "px-3 py-1")}
                  >
                    Remove<span className="sr-only"> the webhook to {hostOf(hook.url)}</span>
                  </Link>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function statusLabel(status: DeliveryView["status"]) {
  return { pending: "Pending", succeeded: "Succeeded", failed: "Failed", skipped: "Skipped" }[
    status
  ];
}

const STATUS_TONE = {
  pending: "blue",
  succeeded: "green",
  failed: "red",
  skipped: "gray",
} as const;

/** One webhook's deliveries, newest first, each with Redeliver. */
function DeliveryLog({ hook }: { hook: Hook }) {
  const headingId = `deliveries-${hook.id}`;
  const host = hostOf(hook.url);
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <h2 id={headingId} className="text-lg font-semibold">
        Deliveries to {host}
      </h2>
      {hook.deliveries.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Nothing sent yet: a delivery appears here after the next event it listens to.
        </p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Deliveries to {host}</caption>
            <TableHead
              columns={[
                "Event",
                "Status",
                { label: "HTTP code", numeric: true },
                { label: "Duration", numeric: true },
                { label: "Attempts", numeric: true },
                "Sent",
                "Response",
                "Actions",
              ]}
            />
            <tbody>
              {hook.deliveries.map((d) => (
                <tr
                  key={d.id}
                  className="border-t border-slate-200 align-top dark:border-slate-800"
                >
                  <td className="py-2 pr-4 font-mono text-xs">{d.eventType}</td>
                  <td className="py-2 pr-4">
                    <Badge tone={STATUS_TONE[d.status]}>{statusLabel(d.status)}</Badge>
                  </td>
                  <td className="py-2 pr-4 text-right tabular-nums">{d.responseStatus ?? "-"}</td>
                  <td className="py-2 pr-4 text-right tabular-nums">
                    {d.durationMs === null ? "-" : `${d.durationMs} ms`}
                  </td>
                  <td className="py-2 pr-4 text-right tabular-nums">{d.attempts}</td>
                  <td className="py-2 pr-4">
                    <LocalDate value={d.lastAttemptAt ?? d.createdAt} style="dateTime" />
                  </td>
                  <td className="py-2 pr-4">
                    {d.responseBody ? (
                      <details>
                        <summary className="cursor-pointer text-brand">
                          Response<span className="sr-only"> of delivery {d.id}</span>
                        </summary>
                        <pre className="mt-2 max-h-48 max-w-md overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-2 text-xs dark:bg-slate-900">
                          {d.responseBody}
                        </pre>
                      </details>
                    ) : (
                      "-"
                    )}
                  </td>
                  <td className="py-2">
                    <RedeliverButton deliveryId={d.id} eventType={d.eventType} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function RedeliverButton({ deliveryId, eventType }: { deliveryId: string; eventType: string }) {
  const busy = useIsPending({ intent: I.redeliver });
  return (
    <Form method="post" replace preventScrollReset>
      <input type="hidden" name="intent" value={I.redeliver} />
      <input type="hidden" name="deliveryId" value={deliveryId} />
      <Button type="submit" variant="secondary" className="px-3 py-1" disabled={busy}>
        Redeliver<span className="sr-only"> {eventType}</span>
      </Button>
    </Form>
  );
}

function AddWebhookForm({ typed }: { typed: Record<string, string | string[]> | null }) {
  const text = (name: string) => (typeof typed?.[name] === "string" ? typed[name] : undefined);
  const [form, fields] = useIntentForm(I.add, webhookInputSchema, {
    defaultValue: {
      url: text("url"),
      events: typed?.events ? [typed.events].flat() : undefined,
      format: text("format") ?? "standard",
    },
  });
  const adding = useIsPending({ intent: I.add });
  const checkboxes = getCollectionProps(fields.events, {
    type: "checkbox",
    options: PROJECT_EVENT_TYPES,
  });
  const byValue = new Map(checkboxes.map((props) => [props.value, props]));
  const eventsErrorId = `${fields.events.id}-error`;
  return (
    <section
      aria-labelledby="add-webhook-heading"
      className="max-w-3xl space-y-4 rounded-lg border border-dashed border-slate-300 p-4 dark:border-slate-700"
    >
      <h2 id="add-webhook-heading" className="text-lg font-semibold">
        Add webhook
      </h2>
      <IntentForm form={form} className="space-y-4">
        <Field
          field={fields.url}
          label="URL"
          type="url"
          autoComplete="off"
          placeholder="https://example.com/hooks/stackshift"
          hint="An https address that answers a POST with a 2xx. For Slack, an incoming-webhook URL."
        />
        <fieldset
          className="space-y-3"
          aria-invalid={fields.events.errors?.length ? true : undefined}
          aria-describedby={fields.events.errors?.length ? eventsErrorId : undefined}
        >
          <legend className="text-sm font-medium">Events</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            {GROUPS.map((group) => (
              <fieldset key={group.prefix} className="space-y-1">
                <legend className="text-sm text-slate-600 dark:text-slate-300">
                  {group.label}
                </legend>
                {PROJECT_EVENT_TYPES.filter((t) => groupOf(t) === group.prefix).map((type) => {
                  const { key, ...props } = byValue.get(type)!;
                  return (
                    <label key={key ?? type} className="flex items-center gap-2 text-sm">
                      <input {...props} />
                      {EVENT_CATALOG[type].label}
                    </label>
                  );
                })}
              </fieldset>
            ))}
          </div>
          <FieldError id={eventsErrorId} errors={fields.events.errors} />
        </fieldset>
        <SelectField field={fields.format} label="Format">
          <option value="standard">Standard (signed JSON)</option>
          <option value="slack">Slack (incoming webhook)</option>
        </SelectField>
        <Button type="submit" disabled={adding}>
          {adding ? "Adding webhook..." : "Add webhook"}
        </Button>
      </IntentForm>
    </section>
  );
}

/** The new webhook's secret, in this answer only, and how a receiver checks a delivery with it. */
function NewSecretPanel({ url, secret }: { url: string; secret: string }) {
  return (
    <section
      aria-labelledby="new-secret-heading"
      role="status"
      className="max-w-3xl space-y-3 rounded-lg border border-green-300 bg-green-50 p-4 dark:border-green-800 dark:bg-green-950"
    >
      <h2 id="new-secret-heading" className="text-lg font-semibold">
        Webhook added: copy its signing secret now
      </h2>
      <p className="text-sm">
        Deliveries to <span className="break-all font-mono">{url}</span> are signed with this
        secret. It is shown only this once: keep it in your receiver&apos;s secret store.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code
          aria-label="Signing secret"
          className="break-all rounded bg-white px-2 py-1 text-sm dark:bg-slate-900"
        >
          {secret}
        </code>
        <CopyButton value={secret} label="the signing secret" />
      </div>
      <p className="text-sm">
        To verify a delivery, check its <code>webhook-signature</code> with the{" "}
        <code>standardwebhooks</code> package (npm, PyPI and others), over the raw body:
      </p>
      <pre className="overflow-auto rounded bg-white p-3 text-xs dark:bg-slate-900">
        {VERIFY_SAMPLE}
      </pre>
    </section>
  );
}
