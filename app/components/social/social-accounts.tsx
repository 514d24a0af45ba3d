import { Link, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { LocalDate } from "~/components/local-date";
import { useOAuthCompleteMessage } from "~/components/oauth/use-oauth-popup";
import { SectionCard } from "~/components/ui/section-card";
import { urlWith } from "~/components/shell/shell-helpers";
import { buttonClass } from "~/components/ui/button";
import { SOCIAL_MESSAGES } from "~/services/integrations";
import type { SocialAccountsView } from "~/services/integrations/index.server";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { LazyLinkAccountDialog } from "./link-account-dialog.lazy";

export const SOCIAL_LINK_INTENT = "social-link";
export const SOCIAL_UNLINK_INTENT = "social-unlink";

function Avatar({ url, name }: { url: string | null; name: string }) {
  return url ? (
    <img src={url} alt="" width={40} height={40} className="h-10 w-10 rounded-full object-cover" />
  ) : (
    <span
      aria-hidden="true"
      className="flex h-10 w-10 items-center justify-center rounded-full bg-slate-200 font-semibold text-slate-600 dark:bg-slate-700 dark:text-slate-200"
    >
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/**
 * The Social accounts card: each linked account (picture or placeholder, profile name, user
 * name, 'Last updated', platform) with a menu of 'Go to profile' and Unlink (a confirmation at
 * ?unlink={id}); 'Link account' (?dialog=link-social) for those who may link.
 */
export function SocialAccountsSection({ view }: { view: SocialAccountsView }) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const linking = searchParams.get("dialog") === "link-social" && view.canLink;
  const unlinking = view.canUnlink
    ? view.accounts.find((a) => a.id === searchParams.get("unlink"))
    : undefined;
  const back = urlWith(location.pathname, location.search, { dialog: null, unlink: null });
  const close = () => navigate(back, { replace: true, preventScrollReset: true });
  // Linked in the popup: the dialog has done its job.
  useOAuthCompleteMessage("OAuthComplete", linking ? close : undefined);
  return (
    <SectionCard id="social-accounts" title="Social Accounts">
      {view.accounts.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{SOCIAL_MESSAGES.empty}</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {view.accounts.map((account) => (
            <li key={account.id} className="flex items-start gap-3 py-3">
              <Avatar
                url={account.profilePictureUrl}
                name={account.profileName ?? account.userName}
              />
              <div className="min-w-0 flex-1">
                <p className="font-medium">{account.profileName ?? account.userName}</p>
                <p className="text-sm text-slate-600 dark:text-slate-300">@{account.userName}</p>
                <p className="text-xs text-slate-500 dark:text-slate-400">
                  Last updated <LocalDate value={account.lastUpdated} /> ·{" "}
                  <span className="font-medium">Instagram</span>
                </p>
              </div>
              <details className="relative">
                <summary className={buttonClass("secondary", "cursor-pointer list-none px-3 py-1")}>
                  Actions<span className="sr-only"> for @{account.userName}</span>
                </summary>
                <div className="absolute right-0 z-10 mt-1 flex w-44 flex-col rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
                  <a
                    href={account.profileUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="rounded px-3 py-2 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
                  >
                    Go to profile<span className="sr-only"> of @{account.userName} (new tab)</span>
                  </a>
                  {view.canUnlink ? (
                    <Link
                      to={urlWith(location.pathname, location.search, { unlink: account.id })}
                      preventScrollReset
                      className="rounded px-3 py-2 text-sm text-red-700 hover:bg-slate-100 dark:text-red-400 dark:hover:bg-slate-800"
                    >
                      Unlink<span className="sr-only"> @{account.userName}</span>
                    </Link>
                  ) : null}
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
      {view.canLink ? (
        <Link
          to={urlWith(location.pathname, location.search, { dialog: "link-social" })}
          preventScrollReset
          className={buttonClass("primary")}
        >
          Link account
        </Link>
      ) : null}
      {linking ? (
        <LazyLinkAccountDialog studioId={view.studioId} back={back} onClose={close} />
      ) : null}
      {unlinking ? (
        <ConfirmDialog
          title={`Unlink @${unlinking.userName}`}
          description="The site stops showing this account's feed. The account itself stays on Instagram; you can link it again later."
          intent={SOCIAL_UNLINK_INTENT}
          fields={{ accountId: unlinking.id }}
          confirmLabel="Yes, unlink"
          busyLabel="Unlinking..."
          back={back}
          onClose={close}
        />
      ) : null}
    </SectionCard>
  );
}
