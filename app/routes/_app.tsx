import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  Outlet,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { useCallback } from "react";
import { LazyCreateProjectDialog } from "~/components/projects/create-project-dialog.lazy";
import { loadPickerPage } from "~/web/picker.server";
import {
  onlyOverlayChanged,
  pageWithoutDialog,
  selectedStudioId,
  toPickerProject,
  type PickerPage,
  type PickerProject,
} from "~/components/shell/shell-helpers";
import { THEME_ACTION } from "~/components/shell/theme-toggle";
import { TopBar } from "~/components/shell/top-bar";
import { SecondFactorBanner } from "~/components/auth/second-factor-required";
import { RouteError } from "~/components/route-error";
import { LoadingScreen } from "~/components/ui/spinner";
import type { User } from "~/services/accounts/index.server";
import { NotFoundError } from "~/services/core";
import {
  adminNeedsSecondFactor,
  SECOND_FACTOR_SETUP_PATH,
  SecondFactorRequiredError,
} from "~/services/two-factor/index.server";
import { isLive, projectBadge } from "~/services/projects";
import { getProject } from "~/services/projects/index.server";
import { listParams } from "~/web/list-query";
import { requireUser } from "~/web/session.server";

/**
 * The signed-in shell: every page under it needs a session (others go to /auth/login). The
 * project picker's list is not part of every page: with JavaScript the picker loads it from
 * /resources/picker when it opens; without, `?pq=` (its search, or empty for the newest) and
 * `?pcursor=` ('Load more') ask this loader for it. Every page names the current project.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const listed = url.searchParams.has("pq") || url.searchParams.has("pcursor");
  const { query, cursor } = listParams(url.searchParams, { q: "pq", cursor: "pcursor" });
  const page = listed ? await loadPickerPage(user, { query, cursor }) : UNLOADED_PICKER;
  const studioId = selectedStudioId(url.pathname);
  const selected = studioId ? await selectedProject(user, studioId, page.projects) : null;
  // A platform admin without the second factor this server requires: every page says so.
  const secondFactorBanner = adminNeedsSecondFactor(user) ? SECOND_FACTOR_SETUP_PATH : null;
  return { user, picker: { ...page, loaded: listed, selected }, secondFactorBanner };
}

/** The picker before its list is asked for. */
const UNLOADED_PICKER: PickerPage = {
  projects: [],
  query: "",
  total: 0,
  cursor: null,
  nextCursor: null,
};

/** The current page's project for the picker's label, even when the list does not hold it. */
async function selectedProject(
  user: User,
  studioId: string,
  listed: PickerProject[],
): Promise<PickerProject | null> {
  const found = listed.find((p) => p.studioId === studioId);
  if (found) return found;
  try {
    const project = await getProject(user, studioId);
    return toPickerProject({
      ...project,
      badge: projectBadge(project, new Date()),
      live: isLive(project),
    });
  } catch (error) {
    // Not theirs or not there, or closed until a second factor: the page itself answers (404,
    // or the page asking for the factor); the picker just shows none.
    if (error instanceof NotFoundError || error instanceof SecondFactorRequiredError) return null;
    throw error;
  }
}

/**
 * Opening a drawer or dialog (?drawer=, ?dialog=) or switching colour mode changes nothing this
 * loader returns: skip the reload.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formAction,
  defaultShouldRevalidate,
}) => {
  if (formAction === THEME_ACTION) return false;
  if (!formAction && onlyOverlayChanged(currentUrl, nextUrl)) return false;
  return defaultShouldRevalidate;
};

export default function AppLayout() {
  const { user, picker, secondFactorBanner } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  // Moving to another page shows the loading screen; same-page updates (search, polling) do not.
  const changingPage =
    navigation.state === "loading" && navigation.location.pathname !== location.pathname;
  const creating = new URLSearchParams(location.search).get("dialog") === "create";
  // Stable: the dialog calls it from an effect once a project is created.
  const closeCreate = useCallback(
    (open: boolean) => {
      if (!open) navigate(pageWithoutDialog(location), { replace: true, preventScrollReset: true });
    },
    [navigate, location],
  );
  return (
    <>
      <TopBar user={user} picker={picker} />
      {secondFactorBanner ? <SecondFactorBanner setupPath={secondFactorBanner} /> : null}
      <main id="main" className="mx-auto max-w-7xl p-4 wide:p-8" aria-busy={changingPage}>
        {changingPage ? <LoadingScreen /> : <Outlet />}
      </main>
      {creating ? (
        <LazyCreateProjectDialog open isAdmin={user.isAdmin} onOpenChange={closeCreate} />
      ) : null}
    </>
  );
}

/**
 * A page of the signed-in shell that fails keeps the top bar (from this layout's data, when its
 * own loader is not what failed) and shows the error in place of the page: 'Not found' for a
 * 404, otherwise 'Oops! Something went wrong...' with the request id, a retry and a way back.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const shell = useRouteLoaderData<typeof loader>("routes/_app");
  return (
    <>
      {shell ? <TopBar user={shell.user} picker={shell.picker} /> : null}
      {shell?.secondFactorBanner ? (
        <SecondFactorBanner setupPath={shell.secondFactorBanner} />
      ) : null}
      <main id="main" className="mx-auto max-w-7xl p-4 wide:p-8">
        <RouteError error={error} />
      </main>
    </>
  );
}
