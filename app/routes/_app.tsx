import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { TopBar } from "~/components/shell/top-bar";
import { requireUser } from "~/utils/session.server";

/** The signed-in shell: every page under it needs a session (others go to /auth/login). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { user };
}

export default function AppLayout() {
  const { user } = useLoaderData<typeof loader>();
  return (
    <>
      <TopBar user={user} />
      <main id="main" className="mx-auto max-w-7xl p-4 wide:p-8">
        <Outlet />
      </main>
    </>
  );
}
