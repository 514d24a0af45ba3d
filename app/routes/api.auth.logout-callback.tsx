import { redirect } from "@remix-run/node";

/**
 * Where the identity provider sends the browser after its own logout (the
 * post_logout_redirect_uri of app/routes/auth.logout.tsx). Our session already ended.
 */
export const loader = () => redirect("/auth/login");
