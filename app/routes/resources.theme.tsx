import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { otherTheme } from "~/components/shell/shell-helpers";
import { formReply, readForm } from "~/web/http.server";
import { safeRedirect } from "~/web/session.server";
import { getTheme, setTheme } from "~/utils/theme.server";

const themeSchema = z.object({
  theme: z.enum(["light", "dark"]).optional(),
  redirectTo: z.string().max(2000).optional(),
});

/**
 * Colour mode: sets the cookie the root loader reads (so the server renders the right class).
 * A form without JavaScript sends `redirectTo` and is sent back there (same-site paths only);
 * the JavaScript toggle sends none and gets data, so the page does not reload.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const submission = parseWithZod(form, { schema: themeSchema });
  if (submission.status !== "success") return formReply({ result: submission.reply() }, 400);
  const input = submission.value;
  const theme = input.theme ?? otherTheme(await getTheme(request));
  const headers = { "Set-Cookie": await setTheme(theme) };
  // The no-JavaScript form sends the field (even empty: conform reads "" as no value).
  if (form.has("redirectTo")) {
    return redirect(safeRedirect(input.redirectTo, "/"), { headers });
  }
  return data({ theme }, { headers });
}

export const loader = () => redirect("/");
