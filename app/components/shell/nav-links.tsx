import { NavLink } from "@remix-run/react";

export const MAIN_LINKS = [
  { to: "/sites", label: "Projects", end: true },
  { to: "/sites/integrations", label: "Integrations", end: false },
  { to: "/sites/domains", label: "Domains", end: false },
] as const;

/** The top bar's link list; NavLink marks the current one with aria-current="page". */
export function MainNav({
  className = "",
  listClass = "flex gap-1",
  linkClass,
  onNavigate,
}: {
  className?: string;
  listClass?: string;
  linkClass: string;
  onNavigate?: () => void;
}) {
  return (
    <nav aria-label="Main" className={className}>
      <ul className={listClass}>
        {MAIN_LINKS.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} end={link.end} className={linkClass} onClick={onNavigate}>
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
