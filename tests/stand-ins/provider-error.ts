import { expect } from "vitest";
import { ProviderError } from "~/providers/errors";

/** Awaits a call expected to fail, asserts it failed with a ProviderError, and returns it. */
export async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}
