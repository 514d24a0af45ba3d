import { LocalDate } from "~/components/local-date";
import { TableHead } from "~/components/ui/table-head";
import type { SupportHistoryEntry } from "~/services/activity/index.server";

/**
 * 'Support on deleted projects': what the support team did on projects the user owned and that
 * are gone now (their Activity Log went with them). From the audit log
 * (docs/decisions/026-audit-log.md).
 */
export function SupportHistory({ entries }: { entries: SupportHistoryEntry[] }) {
  return (
    <section
      aria-labelledby="support-history-heading"
      className="space-y-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id="support-history-heading" className="text-lg font-semibold">
        Support on deleted projects
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        What the StackShift support team viewed, changed or deleted on your projects that no longer
        exist. For your current projects, see their Activity Log.
      </p>
      {entries.length === 0 ? (
        <p className="text-sm">No support access to deleted projects.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">
            Support access to your deleted projects, newest first
          </caption>
          <TableHead columns={["Project", "What", "By", "When"]} />
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id} className="border-t border-slate-200 dark:border-slate-800">
                <td className="py-2 pr-3">{entry.projectName}</td>
                <td className="py-2 pr-3">{entry.what}</td>
                <td className="py-2 pr-3">{entry.actorEmail}</td>
                <td className="whitespace-nowrap py-2">
                  <LocalDate value={entry.at} style="timestamp" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
