/**
 * The pages' answer when a second factor is required and missing
 * (docs/decisions/042-second-factor-required.md): a 403 whose data names the reason, which the
 * error screen (app/components/route-error.tsx) shows as 'Set up a second factor' with the link.
 * The JSON API answers the same error as its 403 JSON message (apiError).
 */
import {
  SECOND_FACTOR_SETUP_PATH,
  SecondFactorRequiredError,
} from "~/services/two-factor/index.server";

export type SecondFactorRefusal = {
  secondFactorRequired: SecondFactorRequiredError["reason"];
  message: string;
  setupPath: string;
};

export function secondFactorRefusal(error: SecondFactorRequiredError): Response {
  const body: SecondFactorRefusal = {
    secondFactorRequired: error.reason,
    message: error.message,
    setupPath: SECOND_FACTOR_SETUP_PATH,
  };
  return Response.json(body, { status: 403 });
}

/** Throws the page's 403 for a missing required second factor; anything else is thrown on. */
export function throwAsPage(error: unknown): never {
  if (error instanceof SecondFactorRequiredError) throw secondFactorRefusal(error);
  throw error;
}
