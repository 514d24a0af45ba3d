import { useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { Button } from "~/components/ui/button";
import { FieldError } from "~/components/ui/field";
import { IntentForm } from "~/components/ui/intent-form";
import { ROLE_LABEL } from "~/services/members";
import {
  eventLabel,
  eventsFor,
  NOTIFIABLE_EVENTS,
  NOTIFICATION_ROLES,
  notificationSettingsSchema,
  PROJECT_MODE_LABEL,
  PROJECT_MODES,
  type ByRole,
  type ProjectMode,
} from "~/services/notifications";
import type { ProjectRole } from "~/services/events";
import { useIsPending } from "~/utils/use-is-pending";

/** The Notifications page's one form. */
export const NOTIFICATION_INTENT = "notifications-save";

const cell = "border-b border-slate-200 px-3 py-2 dark:border-slate-800";

type Props = {
  byRole: ByRole;
  digest: boolean;
  projects: { id: string; studioId: string; name: string; role: ProjectRole; mode: ProjectMode }[];
  lastResult: SubmissionResult<string[]> | null;
};

/**
 * The events by role (a checkbox where the role may be mailed the event), the digest, and one
 * choice per project, saved together with one POST (no JavaScript needed).
 */
export function NotificationSettingsForm({ byRole, digest, projects, lastResult }: Props) {
  const saving = useIsPending({ intent: NOTIFICATION_INTENT });
  const [form, fields] = useForm({
    id: NOTIFICATION_INTENT,
    lastResult,
    constraint: getZodConstraint(notificationSettingsSchema),
    defaultNoValidate: false,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: notificationSettingsSchema }),
    shouldValidate: "onSubmit",
  });
  const roleErrors = NOTIFICATION_ROLES.flatMap((role) => fields[role].errors ?? []);
  // A project's choice is one field of a list: its errors are said under the projects' table.
  const projectErrors = Object.entries(form.allErrors)
    .filter(([name]) => name.startsWith("projects"))
    .flatMap(([, errors]) => errors);
  return (
    <IntentForm form={form} className="space-y-8">
      <section
        aria-labelledby="by-role-heading"
        className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
      >
        <h2 id="by-role-heading" className="text-lg font-semibold">
          E-mails by project role
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Tick what you want mailed about the projects where you have that role. A dash: the role
          cannot be mailed that event.
        </p>
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Events mailed to you, by your role in the project</caption>
            <thead>
              <tr>
                <th scope="col" className={cell}>
                  Event
                </th>
                {NOTIFICATION_ROLES.map((role) => (
                  <th key={role} scope="col" className={`${cell} text-center`}>
                    {ROLE_LABEL[role]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {NOTIFIABLE_EVENTS.map((type) => (
                <tr key={type}>
                  <th scope="row" className={`${cell} font-normal`}>
                    {eventLabel(type)}
                  </th>
                  {NOTIFICATION_ROLES.map((role) => (
                    <td key={role} className={`${cell} text-center`}>
                      {eventsFor(role).includes(type) ? (
                        <label className="inline-flex items-center justify-center p-1">
                          <input
                            type="checkbox"
                            name={role}
                            value={type}
                            defaultChecked={byRole[role].includes(type)}
                            className="h-4 w-4"
                          />
                          <span className="sr-only">
                            {eventLabel(type)}, as {ROLE_LABEL[role].toLowerCase()}
                          </span>
                        </label>
                      ) : (
                        <>
                          <span aria-hidden="true">-</span>
                          <span className="sr-only">Not available for this role</span>
                        </>
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <FieldError id="by-role-error" errors={roleErrors} />
      </section>

      <section
        aria-labelledby="digest-heading"
        className="space-y-2 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
      >
        <h2 id="digest-heading" className="text-lg font-semibold">
          How often
        </h2>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            name="digest"
            value="on"
            defaultChecked={digest}
            className="mt-0.5 h-4 w-4"
          />
          <span>
            At most one mail per project every 10 minutes: events are collected and sent together
          </span>
        </label>
      </section>

      <section
        aria-labelledby="per-project-heading"
        className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
      >
        <h2 id="per-project-heading" className="text-lg font-semibold">
          Per project
        </h2>
        {projects.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            You are not in any project yet.
          </p>
        ) : (
          <div className="relative overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">What is mailed to you about each project</caption>
              <thead>
                <tr>
                  <th scope="col" className={cell}>
                    Project
                  </th>
                  <th scope="col" className={cell}>
                    Your role
                  </th>
                  <th scope="col" className={cell}>
                    Mail me
                  </th>
                </tr>
              </thead>
              <tbody>
                {projects.map((project, i) => (
                  <tr key={project.id}>
                    <th scope="row" className={`${cell} font-normal`}>
                      {project.name}
                    </th>
                    <td className={cell}>{ROLE_LABEL[project.role]}</td>
                    <td className={cell}>
                      <input type="hidden" name={`projects[${i}].projectId`} value={project.id} />
                      <label htmlFor={`project-mode-${project.id}`} className="sr-only">
                        Mail me about {project.name}
                      </label>
                      <select
                        id={`project-mode-${project.id}`}
                        name={`projects[${i}].mode`}
                        defaultValue={project.mode}
                        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
                      >
                        {PROJECT_MODES.map((mode) => (
                          <option key={mode} value={mode}>
                            {PROJECT_MODE_LABEL[mode]}
                          </option>
                        ))}
                      </select>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <FieldError id="per-project-error" errors={projectErrors} />
      </section>

      <Button type="submit" disabled={saving}>
        {saving ? "Saving..." : "Save notification settings"}
      </Button>
    </IntentForm>
  );
}
