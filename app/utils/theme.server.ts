import { createCookie } from "@remix-run/node";

export type Theme = "light" | "dark";

/** The colour mode lives in a cookie, so the server renders the right class: no flash on load. */
const themeCookie = createCookie("stackshift_theme", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 365 * 24 * 60 * 60,
});

export async function getTheme(request: Request): Promise<Theme> {
  const value = await themeCookie.parse(request.headers.get("Cookie"));
  return value === "dark" ? "dark" : "light";
}

export function setTheme(theme: Theme) {
  return themeCookie.serialize(theme);
}
