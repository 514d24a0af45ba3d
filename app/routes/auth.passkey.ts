/**
 * POST /auth/passkey (JSON): a passkey used to sign in (`sign-in`, from the login page, no
 * account named), as the second step after a password (`second-factor`, the account of this
 * browser's pending sign-in) or to prove a signed-in person is still there (`proof`). Each
 * purpose has two steps: `options` (what navigator.credentials.get needs; the challenge stays in
 * the session) and `verify` (the browser's answer). Answers are JSON: `{ options }`,
 * `{ redirectTo }` (a session was started: the cookie comes with it, the script navigates) or
 * `{ ok: true }`; failures are 4xx `{ error }`. Same-origin only (server/middleware.mjs).
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getUser } from "~/services/accounts/index.server";
import { InvalidError, UnauthorizedError } from "~/services/core";
import { consume } from "~/services/core/index.server";
import { passkeyAuthenticationOptions, verifyPasskey } from "~/services/two-factor/index.server";
import { handleApi, parseInput, readJson } from "~/web/http.server";
import { redirectAsJson, rememberChallenge, takeChallenge } from "~/web/passkeys.server";
import {
  createUserSession,
  getOptionalUser,
  getSession,
  safeRedirect,
  sessionStorage,
} from "~/web/session.server";
import { afterFirstStep, pendingSignIn } from "~/web/sign-in.server";

const stepSchema = z.object({
  purpose: z.enum(["sign-in", "second-factor", "proof"], {
    error: "purpose must be sign-in, second-factor or proof",
  }),
  step: z.enum(["options", "verify"], { error: "step must be options or verify" }),
  response: z.unknown().optional(),
  redirectTo: z.string().max(2000).optional(),
});

const SIGN_IN_EXPIRED = "Your sign-in has expired. Log in again.";

export async function action({ request, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    const body = parseInput(stepSchema, await readJson(request, 64 * 1024));
    const clientIp = context.clientIp ?? "unknown";

    // Who the passkey must belong to, and how sure of the person the device must be.
    let userId: string | null = null;
    if (body.purpose === "second-factor") {
      const pending = await pendingSignIn(request);
      if (!pending) throw new UnauthorizedError(SIGN_IN_EXPIRED);
      userId = pending.userId;
    } else if (body.purpose === "proof") {
      const user = await getOptionalUser(request);
      if (!user) throw new UnauthorizedError("You must be logged in");
      userId = user.id;
    }
    // After a password, presence is enough; alone (or as a proof) the device checks its holder.
    const userVerification = body.purpose === "second-factor" ? "preferred" : "required";

    if (body.step === "options") {
      if (body.purpose === "sign-in") await consume("passkeySignInAddress", clientIp);
      const options = await passkeyAuthenticationOptions({ userId, userVerification });
      const setCookie = await rememberChallenge(await getSession(request), {
        challenge: options.challenge,
        purpose: body.purpose,
        userId,
      });
      return Response.json({ options }, { headers: { "Set-Cookie": setCookie } });
    }

    if (body.response === undefined) {
      throw new InvalidError("Send the passkey's answer", { response: ["Required"] });
    }
    const taken = await takeChallenge(request, body.purpose);
    if (taken.userId !== userId) throw new InvalidError(SIGN_IN_EXPIRED);
    const user = await verifyPasskey({
      response: body.response,
      expectedChallenge: taken.challenge,
      expectedUserId: userId,
      requireUserVerification: userVerification === "required",
      clientIp,
    });

    if (body.purpose === "sign-in") {
      return redirectAsJson(
        await afterFirstStep(request, user, {
          method: "passkey",
          redirectTo: safeRedirect(body.redirectTo, "/"),
        }),
      );
    }
    if (body.purpose === "second-factor") {
      const pending = await pendingSignIn(request);
      const account = pending && pending.userId === user.id ? await getUser(user.id) : null;
      if (!pending || !account) throw new UnauthorizedError(SIGN_IN_EXPIRED);
      return redirectAsJson(await createUserSession(request, account, pending.redirectTo));
    }
    // A proof: the session (without its challenge now) records when.
    taken.session.set("proofAt", Date.now());
    return Response.json(
      { ok: true },
      { headers: { "Set-Cookie": await sessionStorage().commitSession(taken.session) } },
    );
  });
}
