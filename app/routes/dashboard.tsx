import { redirect } from "@remix-run/node";

/** /dashboard is another address of the project list, which lives at /sites. */
export function loader() {
  return redirect("/sites");
}
