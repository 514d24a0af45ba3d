import { Link } from "@remix-run/react";
import { LocalDate } from "~/components/local-date";
import { Badge } from "~/components/ui/badge";
import { buttonClass } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { CopyButton } from "~/components/ui/copy-button";
import { TableHead } from "~/components/ui/table-head";
import type { TokenView } from "~/services/accounts/index.server";

/** The token just made, in the answer to the form: the only time it is shown. */
export function NewTokenPanel({ name, token }: { name: string; token: string }) {
  return (
    <section
      role="status"
      aria-labelledby="made-token-heading"
      className="max-w-3xl space-y-3 rounded-lg border border-green-300 bg-green-50 p-4 dark:border-green-800 dark:bg-green-950"
    >
      <h2 id="made-token-heading" className="text-lg font-semibold">
        Your new token {name}
      </h2>
      <p className="text-sm">
        Copy it now and keep it in your CI&apos;s secret store: it is not shown again.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor="made-token" className="sr-only">
          The token {name}
        </label>
        <input
          id="made-token"
          readOnly
          value={token}
          className="block w-full max-w-xl rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-900"
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton value={token} label={`the token ${name}`} />
      </div>
    </section>
  );
}

const STATE: Record<TokenView["state"], { label: string; tone: "green" | "gray" | "red" }> = {
  active: { label: "Active", tone: "green" },
  expired: { label: "Expired", tone: "gray" },
  revoked: { label: "Revoked", tone: "red" },
};

/** The person's tokens as a table, each active one with Revoke (a confirmation first). */
export function ApiTokenList({
  tokens,
  revoking,
  revokeIntent,
  revokeHref,
  back,
  onClose,
}: {
  tokens: TokenView[];
  revoking: TokenView | null;
  revokeIntent: string;
  revokeHref: (id: string) => string;
  back: string;
  onClose: () => void;
}) {
  return (
    <section aria-labelledby="tokens-heading" className="space-y-3">
      <h2 id="tokens-heading" className="text-lg font-semibold">
        Your tokens
      </h2>
      {tokens.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          No tokens yet. Make one above for a script or a CI pipeline.
        </p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Your personal access tokens</caption>
            <TableHead
              columns={[
                "Name",
                "May",
                "Projects",
                "Created",
                "Last used",
                "Expires",
                "State",
                <span key="actions" className="sr-only">
                  Actions
                </span>,
              ]}
            />
            <tbody>
              {tokens.map((t) => (
                <tr key={t.id} className="border-t border-slate-200 dark:border-slate-800">
                  <td className="py-2 pr-3">
                    {t.name}
                    <span className="ml-2 font-mono text-xs text-slate-500">…{t.lastFour}</span>
                  </td>
                  <td className="py-2 pr-3">{t.scope === "read" ? "Read" : "Read and write"}</td>
                  <td className="py-2 pr-3">
                    {t.projects === null
                      ? "All"
                      : t.projects.map((p) => p.name).join(", ") || "None"}
                  </td>
                  <td className="py-2 pr-3">
                    <LocalDate value={t.createdAt} />
                  </td>
                  <td className="py-2 pr-3">
                    {t.lastUsedAt ? <LocalDate value={t.lastUsedAt} style="dateTime" /> : "Never"}
                  </td>
                  <td className="py-2 pr-3">
                    <LocalDate value={t.expiresAt} />
                  </td>
                  <td className="py-2 pr-3">
                    <Badge tone={STATE[t.state].tone}>{STATE[t.state].label}</Badge>
                  </td>
                  <td className="py-2">
                    {t.state === "active" ? (
                      <Link
                        to={revokeHref(t.id)}
                        preventScrollReset
                        className={buttonClass("secondary", "px-3 py-1")}
                      >
                        Revoke<span className="sr-only"> {t.name}</span>
                      </Link>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoking ? (
        <ConfirmDialog
          title={`Revoke ${revoking.name}?`}
          description="Scripts using this token are refused from their next call. This cannot be undone."
          intent={revokeIntent}
          fields={{ tokenId: revoking.id }}
          confirmLabel="Yes, revoke it"
          busyLabel="Revoking..."
          back={back}
          onClose={onClose}
        />
      ) : null}
    </section>
  );
}
