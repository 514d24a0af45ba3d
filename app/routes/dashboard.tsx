import { redirect } from "@remix-run/node";

/** Spec section 2 lists /dashboard; the project list lives at /sites. */
export function loader() {
  return redirect("/sites");
}
