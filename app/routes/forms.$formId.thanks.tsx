import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { FORM_MESSAGES } from "~/services/forms";
import { studioIdOfForm } from "~/services/forms/index.server";

export const meta: MetaFunction = () => [
  { title: "Thank you" },
  { name: "robots", content: "noindex" },
];

/** Only a form that exists has a thank-you page. */
export async function loader({ params }: LoaderFunctionArgs) {
  if (!(await studioIdOfForm(params.formId ?? ""))) {
    throw new Response("Not Found", { status: 404 });
  }
  return null;
}

/** Where a plain HTML form post lands when its form names no address and its page is unknown. */
export default function FormThanks() {
  return (
    <main className="mx-auto max-w-md px-4 py-16 text-center">
      <h1 className="text-2xl font-semibold">{FORM_MESSAGES.thanks}</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">You can close this page.</p>
    </main>
  );
}
