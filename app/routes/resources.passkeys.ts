/**
 * /resources/passkeys: the signed-in person's passkeys, for the settings section
 * (app/components/user-settings/passkeys.tsx), wherever a page mounts it.
 *
 * - JSON (the section's script; adding a passkey needs JavaScript): `{ intent:
 *   "registration-options" }` answers `{ options }` for navigator.credentials.create, the
 *   challenge kept in the session; `{ intent: "registration-verify", name, response }` keeps the
 *   passkey and answers 201 `{ passkey, recoveryCodes }` (the codes only with the account's
 *   first factor, to be shown once). Failures: 4xx `{ error, fieldErrors? }`.
 * - Forms (without JavaScript too): `passkey-rename` and `passkey-delete` (after the section's
 *   confirmation), each back to `redirectTo` (a path of the app) with a toast.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { InvalidError, UnauthorizedError } from "~/services/core";
import { passkeyDeleteSchema, passkeyRenameSchema } from "~/services/two-factor";
import {
  addPasskey,
  deletePasskey,
  passkeyRegistrationOptions,
  renamePasskey,
} from "~/services/two-factor/index.server";
import { requireRecentProof } from "~/web/proof.server";
import { dispatchIntent } from "~/web/intents.server";
import { handleApi, parseInput, readJson } from "~/web/http.server";
import { rememberChallenge, takeChallenge } from "~/web/passkeys.server";
import { getOptionalUser, getSession, requireUser, safeRedirect } from "~/web/session.server";
import { redirectWithToast } from "~/utils/toast.server";

/** Where the section lives unless the form says otherwise. */
export const PASSKEYS_PAGE = "/sites/user-settings";

export const PASSKEY_INTENTS = {
  rename: "passkey-rename",
  delete: "passkey-delete",
} as const;

export function loader() {
  return redirect(PASSKEYS_PAGE);
}

const jsonSchema = z.object({
  intent: z.enum(["registration-options", "registration-verify"], {
    error: "intent must be registration-options or registration-verify",
  }),
  name: z.unknown().optional(),
  response: z.unknown().optional(),
});

export async function action({ request }: ActionFunctionArgs) {
  const type = request.headers.get("content-type") ?? "";
  if (/^\s*application\/json/i.test(type)) return jsonAction(request);
  return formAction(request);
}

function jsonAction(request: Request) {
  return handleApi(async () => {
    const user = await getOptionalUser(request);
    if (!user) throw new UnauthorizedError("You must be logged in");
    const body = parseInput(jsonSchema, await readJson(request, 64 * 1024));
    if (body.intent === "registration-options") {
      const options = await passkeyRegistrationOptions(user);
      const setCookie = await rememberChallenge(await getSession(request), {
        challenge: options.challenge,
        purpose: "register",
        userId: user.id,
      });
      return Response.json({ options }, { headers: { "Set-Cookie": setCookie } });
    }
    const taken = await takeChallenge(request, "register");
    if (taken.userId !== user.id) throw new InvalidError("Start adding the passkey again");
    const added = await addPasskey(user, {
      name: body.name as string,
      response: body.response as never,
      expectedChallenge: taken.challenge,
    });
    return Response.json(added, { status: 201 });
  });
}

async function formAction(request: Request) {
  const user = await requireUser(request);
  const backOf = (formData: FormData) => safeRedirect(formData.get("redirectTo"), PASSKEYS_PAGE);
  return dispatchIntent(
    request,
    {
      [PASSKEY_INTENTS.rename]: async ({ formData }) => {
        const { passkeyId, name } = parseInput(passkeyRenameSchema, Object.fromEntries(formData));
        const renamed = await renamePasskey(user, passkeyId, name);
        return redirectWithToast(backOf(formData), {
          type: "success",
          title: `Passkey renamed to ${renamed.name}`,
        });
      },
      [PASSKEY_INTENTS.delete]: async ({ formData }) => {
        const { passkeyId } = parseInput(passkeyDeleteSchema, Object.fromEntries(formData));
        await requireRecentProof(request, user, { formData, returnTo: backOf(formData) });
        const { name, factorLeft } = await deletePasskey(user, passkeyId);
        return redirectWithToast(backOf(formData), {
          type: "success",
          title: `Passkey ${name} deleted`,
          description: factorLeft
            ? undefined
            : "Your account has no second factor now, and its recovery codes were deleted.",
        });
      },
    },
    {
      maxBytes: 8 * 1024,
      onError: (error, { formData }) => {
        const fields = error instanceof InvalidError ? Object.values(error.fieldErrors) : [];
        return redirectWithToast(backOf(formData), {
          type: "error",
          title: fields[0]?.[0] ?? error.message,
        });
      },
    },
  );
}
