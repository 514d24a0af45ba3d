import { redirect } from "@remix-run/node";

/** Spec section 2 lists /pagebuilders; the project list lives at /sites. */
export function loader() {
  return redirect("/sites");
}
