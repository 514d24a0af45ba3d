import { Link, NavLink } from "@remix-run/react";
import type { User } from "~/services/accounts/index.server";
import { useHydrated } from "~/utils/page-load";
import { LogoutButton } from "./logout-button";
import { MainNav } from "./nav-links";
import { Sheet } from "./sheet";
import type { UrlOverlay } from "./use-url-overlay";

const entryClass =
  "block w-full rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 aria-[current=page]:bg-slate-100 aria-[current=page]:font-semibold disabled:opacity-60 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-[current=page]:bg-slate-800";

/**
 * Below 1280px the user menu's entries and the nav links live in this side drawer. It opens from
 * the 'Menu' button (JavaScript) or the ?drawer=open link (no JavaScript).
 */
export function MenuDrawer({
  user,
  drawer,
  about,
  docs,
}: {
  user: User;
  drawer: UrlOverlay;
  about: UrlOverlay;
  docs: UrlOverlay;
}) {
  const hydrated = useHydrated();
  const close = () => drawer.setOpen(false);
  // With JavaScript, About and Documentation replace the drawer; without, their links do.
  // Focus goes back to the 'Menu' button when that one closes.
  const openFromDrawer = (overlay: UrlOverlay) => {
    const back = drawer.returnFocusTarget();
    drawer.setOpen(false, { restoreFocus: false });
    overlay.setOpen(true, { returnFocusTo: back });
  };
  return (
    <Sheet overlay={drawer} title="Menu" className="wide:hidden">
      <div className="border-b border-slate-200 pb-3 dark:border-slate-700">
        <p className="truncate text-sm font-semibold">{user.name}</p>
        <p className="truncate text-xs text-slate-500 dark:text-slate-400">{user.email}</p>
      </div>
      <MainNav
        className="mt-3"
        listClass="flex flex-col gap-1"
        linkClass={entryClass}
        onNavigate={close}
      />
      <ul className="mt-3 flex flex-col gap-1 border-t border-slate-200 pt-3 dark:border-slate-700">
        <li>
          <NavLink to="/sites/support" className={entryClass} onClick={close}>
            Support
          </NavLink>
        </li>
        <li>
          <NavLink to="/sites/user-settings" className={entryClass} onClick={close}>
            User Settings
          </NavLink>
        </li>
        {user.isAdmin ? (
          <li>
            <NavLink to="/admin" className={entryClass} onClick={close}>
              Manage Requests
            </NavLink>
          </li>
        ) : null}
        <li>
          {hydrated ? (
            <button type="button" className={entryClass} onClick={() => openFromDrawer(about)}>
              About
            </button>
          ) : (
            <Link to={about.openHref} preventScrollReset className={entryClass}>
              About
            </Link>
          )}
        </li>
        <li>
          {hydrated ? (
            <button type="button" className={entryClass} onClick={() => openFromDrawer(docs)}>
              Documentation
            </button>
          ) : (
            <Link to={docs.openHref} preventScrollReset className={entryClass}>
              Documentation
            </Link>
          )}
        </li>
      </ul>
      <div className="mt-3 border-t border-slate-200 pt-3 dark:border-slate-700">
        <LogoutButton className={entryClass} />
      </div>
    </Sheet>
  );
}
