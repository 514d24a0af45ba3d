import { Link } from "@remix-run/react";
import { useRef } from "react";
import type { User } from "~/services/accounts/index.server";
import { usePopups } from "~/utils/page-load";
import { LogoutButton } from "./logout-button";
import { initials } from "./shell-helpers";
import type { UrlOverlay } from "./use-url-overlay";

const itemClass =
  "block w-full cursor-pointer rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus-visible:bg-slate-100 data-[highlighted]:bg-slate-100 disabled:opacity-60 dark:text-slate-200 dark:hover:bg-slate-800 dark:focus-visible:bg-slate-800 dark:data-[highlighted]:bg-slate-800";
const panelClass =
  "z-50 w-64 rounded-lg border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900";

function Avatar({ name }: { name: string }) {
  return (
    <span
      aria-hidden
      className="inline-flex h-8 w-8 items-center justify-center rounded-full bg-brand text-xs font-semibold text-white"
    >
      {initials(name)}
    </span>
  );
}

function Who({ user }: { user: User }) {
  return (
    <div className="px-3 py-2">
      <p className="truncate text-sm font-semibold">{user.name}</p>
      <p className="truncate text-xs text-slate-500 dark:text-slate-400">{user.email}</p>
    </div>
  );
}

const triggerClass =
  "flex cursor-pointer list-none items-center gap-2 rounded-md px-2 py-1 text-sm hover:bg-slate-100 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden";

/**
 * The user menu (from 1280px): a Radix DropdownMenu once JavaScript runs and it is loaded, a
 * <details> disclosure of plain links and forms before. About and Documentation open URL-addressable overlays.
 */
export function UserMenu({
  user,
  about,
  docs,
}: {
  user: User;
  about: UrlOverlay;
  docs: UrlOverlay;
}) {
  const popups = usePopups();
  // About and Documentation open once the menu has closed and handed focus back to its trigger,
  // so the dialog takes focus and returns it there when it closes.
  const next = useRef<UrlOverlay | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const disclosure = useRef<HTMLDetailsElement>(null);

  if (!popups) {
    return (
      <details ref={disclosure} className="relative">
        <summary className={triggerClass} aria-label={`User menu for ${user.name}`}>
          <Avatar name={user.name} />
          <span className="max-w-[10rem] truncate">{user.name}</span>
        </summary>
        <div className={`absolute right-0 mt-2 ${panelClass}`}>
          <Who user={user} />
          <hr className="my-1 border-slate-200 dark:border-slate-700" />
          <ul>
            <li>
              <Link to="/sites/user-settings" className={itemClass}>
                User Settings
              </Link>
            </li>
            {user.isAdmin ? (
              <li>
                <Link to="/admin" className={itemClass}>
                  Manage Requests
                </Link>
              </li>
            ) : null}
            <li>
              <Link to={about.openHref} preventScrollReset className={itemClass}>
                About
              </Link>
            </li>
            <li>
              <Link to={docs.openHref} preventScrollReset className={itemClass}>
                Documentation
              </Link>
            </li>
          </ul>
          <hr className="my-1 border-slate-200 dark:border-slate-700" />
          <LogoutButton className={itemClass} />
        </div>
      </details>
    );
  }

  const { DropdownMenu } = popups;
  // modal={false}: the menu opens dialogs (About, Documentation); a modal menu closing while a
  // dialog opens can leave pointer-events disabled on <body>.
  return (
    // Opened before Radix arrived (the <details> is still on the page while this first renders):
    // the menu takes over open rather than closing under the person's pointer.
    <DropdownMenu.Root modal={false} defaultOpen={disclosure.current?.open}>
      <DropdownMenu.Trigger
        ref={trigger}
        className={triggerClass}
        aria-label={`User menu for ${user.name}`}
      >
        <Avatar name={user.name} />
        <span className="max-w-[10rem] truncate">{user.name}</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content
        align="end"
        sideOffset={8}
        className={panelClass}
        onCloseAutoFocus={(event) => {
          if (!next.current) return;
          event.preventDefault();
          trigger.current?.focus();
          next.current.setOpen(true);
          next.current = null;
        }}
      >
        <DropdownMenu.Label asChild>
          <div>
            <Who user={user} />
          </div>
        </DropdownMenu.Label>
        <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />
        <DropdownMenu.Item asChild className={itemClass}>
          <Link to="/sites/user-settings">User Settings</Link>
        </DropdownMenu.Item>
        {user.isAdmin ? (
          <DropdownMenu.Item asChild className={itemClass}>
            <Link to="/admin">Manage Requests</Link>
          </DropdownMenu.Item>
        ) : null}
        <DropdownMenu.Item className={itemClass} onSelect={() => (next.current = about)}>
          About
        </DropdownMenu.Item>
        <DropdownMenu.Item className={itemClass} onSelect={() => (next.current = docs)}>
          Documentation
        </DropdownMenu.Item>
        <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />
        {/* Keep the menu open on select: closing would unmount the form before it submits,
            and the open menu shows 'Logging out...'. */}
        <DropdownMenu.Item asChild className={itemClass} onSelect={(e) => e.preventDefault()}>
          <LogoutButton />
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
