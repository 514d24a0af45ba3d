/**
 * Second factors (docs/decisions/038-second-factors.md): the authenticator app (TOTP), recovery
 * codes and passkeys. What other areas may import.
 */
export { factorsOf, refreshTwoFactorSince, afterFactorRemoved } from "./factors.server";
export type { FactorsView } from "./factors.server";
export {
  CODE_NOT_RIGHT,
  disableTotp,
  enableTotp,
  isTotpSecret,
  newTotpSecret,
  totpSetupView,
} from "./totp.server";
export { issueRecoveryCodes, RECOVERY_CODE_COUNT } from "./recovery-codes.server";
export { checkSecondFactor, makeNewRecoveryCodes } from "./second-step.server";
export {
  addPasskey,
  deletePasskey,
  listPasskeys,
  MAX_PASSKEYS,
  PASSKEY_CHALLENGE_MS,
  PASSKEY_NOT_RIGHT,
  PASSKEY_NOT_YOURS,
  PASSKEY_UNKNOWN,
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions,
  passkeysOf,
  relyingParty,
  renamePasskey,
  verifyPasskey,
} from "./passkeys.server";
export type { PasskeyView } from "./passkeys.server";
export * from "./passkeys.server";
export * from "./required.server";
