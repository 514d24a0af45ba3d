import { Link, NavLink } from "@remix-run/react";
import type { User } from "~/services/accounts/index.server";
import { useHydrated } from "~/utils/page-load";
import { AboutDialog } from "./about-dialog";
import { DocumentationDrawer } from "./documentation";
import { MenuDrawer } from "./menu-drawer";
import { MainNav } from "./nav-links";
import { ProjectPicker, type PickerData } from "./project-picker";
import { ThemeToggle } from "./theme-toggle";
import { useUrlOverlay } from "./use-url-overlay";
import { UserMenu } from "./user-menu";

const navLinkClass =
  "rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 aria-[current=page]:bg-slate-100 aria-[current=page]:text-brand dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-[current=page]:bg-slate-800";

/**
 * The signed-in top bar: logo, link list, project picker, Support, colour mode,
 * and the user menu from 1280px or the side drawer below. The menus and dialogs it opens are
 * URL-addressable (?drawer=open|docs, ?dialog=about), so they also work without JavaScript.
 */
export function TopBar({ user, picker }: { user: User; picker: PickerData }) {
  const hydrated = useHydrated();
  const drawer = useUrlOverlay("drawer", "open");
  const docs = useUrlOverlay("drawer", "docs");
  const about = useUrlOverlay("dialog", "about", ["drawer"]);

  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm focus:not-sr-only focus:fixed focus:left-2 focus:top-2 dark:bg-slate-900"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2">
          <Link to="/sites" className="text-lg font-bold text-brand">
            StackShift
          </Link>
          <MainNav className="hidden wide:block" linkClass={navLinkClass} />
          <ProjectPicker picker={picker} />
          <div className="ml-auto flex items-center gap-2">
            <NavLink to="/sites/support" className={`hidden wide:inline-flex ${navLinkClass}`}>
              Support
            </NavLink>
            <ThemeToggle />
            <div className="hidden wide:block">
              <UserMenu user={user} about={about} docs={docs} />
            </div>
            {hydrated ? (
              <button
                type="button"
                className={`wide:hidden ${navLinkClass}`}
                aria-haspopup="dialog"
                aria-expanded={drawer.open}
                onClick={() => drawer.setOpen(true)}
              >
                Menu
              </button>
            ) : (
              <Link
                to={drawer.openHref}
                preventScrollReset
                className={`wide:hidden ${navLinkClass}`}
              >
                Menu
              </Link>
            )}
          </div>
        </div>
      </header>
      <MenuDrawer user={user} drawer={drawer} about={about} docs={docs} />
      <DocumentationDrawer overlay={docs} />
      <AboutDialog overlay={about} />
    </>
  );
}
