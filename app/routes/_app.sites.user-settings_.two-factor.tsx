import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SubpageHeader } from "~/components/user-settings/subpage-header";
import {
  AuthenticatorAppSection,
  NewRecoveryCodes,
  RecoveryCodesSection,
  TWO_FACTOR_INTENTS as I,
} from "~/components/user-settings/two-factor";
import { PasskeysSection } from "~/components/user-settings/passkeys";
import {
  disableTotp,
  enableTotp,
  factorsOf,
  makeNewRecoveryCodes,
  newTotpSecret,
  passkeysOf,
  totpSetupView,
} from "~/services/two-factor/index.server";
import { enableTotpSchema } from "~/services/two-factor";
import { dispatchIntent } from "~/web/intents.server";
import { requireRecentProof } from "~/web/proof.server";
import { getSession, requireUser, sessionStorage } from "~/web/session.server";
import { decryptSecret, encryptSecret } from "~/utils/secrets.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [
  { title: "Two-factor sign-in | User Settings | StackShift" },
];

const PAGE = "/sites/user-settings/two-factor";
/** A set-up not finished within this time starts again (a new secret). */
const SETUP_MS = 15 * 60_000;

type Setup = { secret: string; at: number };

/** The secret being set up in this session, encrypted at rest like the one it becomes. */
async function setupOf(request: Request): Promise<string | null> {
  const setup = (await getSession(request)).get("totpSetup") as Setup | undefined;
  if (!setup || typeof setup.secret !== "string" || Date.now() - setup.at > SETUP_MS) return null;
  try {
    return decryptSecret(setup.secret);
  } catch {
    return null;
  }
}

async function saveSetup(request: Request, setup: Setup | null) {
  const session = await getSession(request);
  if (setup) session.set("totpSetup", setup);
  else session.unset("totpSetup");
  return sessionStorage().commitSession(session);
}

/**
 * /sites/user-settings/two-factor: the person's second factors. The authenticator app is set up
 * by scanning a QR code (or typing the key) and confirming one code; the first factor comes with
 * ten recovery codes, shown once. Works without JavaScript (passkeys need it).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [factors, passkeys] = await Promise.all([factorsOf(user.id), passkeysOf(user)]);
  const secret = !factors.totp ? await setupOf(request) : null;
  return { factors, passkeys, setup: secret ? await totpSetupView(user, secret) : null };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return dispatchIntent(
    request,
    {
      [I.startApp]: async () => {
        const cookie = await saveSetup(request, {
          secret: encryptSecret(newTotpSecret()),
          at: Date.now(),
        });
        return redirect(`${PAGE}#authenticator-app`, { headers: { "Set-Cookie": cookie } });
      },
      [I.cancelApp]: async () => {
        const cookie = await saveSetup(request, null);
        return redirect(PAGE, { headers: { "Set-Cookie": cookie } });
      },
      [I.enableApp]: async ({ formData, reply }) => {
        const s = parseWithZod(formData, { schema: enableTotpSchema });
        if (s.status !== "success") {
          return reply({ result: s.reply({ hideFields: ["code"] }), recoveryCodes: null }, 400);
        }
        const secret = await setupOf(request);
        if (!secret) {
          return redirectWithToast(PAGE, {
            type: "error",
            title: "The set-up took too long: start again",
          });
        }
        const { recoveryCodes } = await enableTotp(user, secret, s.value.code);
        // Shown in this answer only: a reload never shows the codes again. The set-up left in
        // the session is not shown once the app is on, and ends with its 15 minutes.
        return reply({ result: s.reply({ resetForm: true }), recoveryCodes });
      },
      [I.disableApp]: async ({ formData }) => {
        await requireRecentProof(request, user, { formData });
        const { factorLeft } = await disableTotp(user);
        return redirectWithToast(PAGE, {
          type: "success",
          title: "Authenticator app turned off",
          description: factorLeft
            ? "Your passkeys still guard your sign-ins."
            : "Signing in needs only your password now. Your recovery codes were deleted.",
        });
      },
      [I.newCodes]: async ({ formData, reply }) => {
        await requireRecentProof(request, user, { formData });
        const recoveryCodes = await makeNewRecoveryCodes(user);
        return reply({ result: { status: "success" as const }, recoveryCodes });
      },
    },
    {
      maxBytes: 4 * 1024,
      onError: (error, { reply }) => {
        const fields =
          "fieldErrors" in error ? (error.fieldErrors as Record<string, string[]>) : {};
        if (Object.keys(fields).length > 0) {
          return reply({ result: { status: "error", error: fields }, recoveryCodes: null }, error);
        }
        return redirectWithToast(PAGE, { type: "error", title: error.message });
      },
    },
  );
}

export default function TwoFactorPage() {
  const { factors, passkeys, setup } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const codes =
    actionData && "recoveryCodes" in actionData ? (actionData.recoveryCodes ?? null) : null;
  return (
    <article className="space-y-8">
      <SubpageHeader title="Two-factor sign-in">
        With a second factor, your password alone no longer signs anyone in: StackShift also asks
        for a code from your authenticator app, a passkey, or one of your recovery codes.
      </SubpageHeader>
      {codes ? <NewRecoveryCodes codes={codes} /> : null}
      <AuthenticatorAppSection totp={factors.totp} setup={setup} />
      <PasskeysSection {...passkeys} />
      <RecoveryCodesSection
        left={factors.recoveryCodesLeft}
        hasFactor={Boolean(factors.totp) || factors.passkeys > 0}
      />
    </article>
  );
}
