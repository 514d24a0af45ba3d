/**
 * Matchers for the integration tests' responses (registered in vitest.config.ts):
 *
 *   expect(res).toHaveRedirect("/sites")          a 3xx whose Location is "/sites"
 *   expect(res).toHaveRedirect(/^\/auth\/login/)  ... or matches
 *   expect(res).not.toHaveRedirect()              no redirect at all
 *   await expect(res).toSendToast({ type: "success", title: "Role updated!" })
 *   await expect(res).not.toSendToast()
 *
 * A toast travels in the signed `stackshift_toast` cookie the response sets
 * (app/utils/toast.server.ts); `toSendToast` reads it back as the next page would, and compares
 * it like toMatchObject. Asymmetric matchers (expect.stringMatching) work in both.
 */
import { expect } from "vitest";
import { readToast, type Toast } from "~/utils/toast.server";
import { makeRequest } from "../helpers";

/** The Location a response sends, as is (null without one). */
export function locationOf(res: Response): string | null {
  return res.headers.get("Location");
}

/** The toast a response flashes, read back from its Set-Cookie as the next request would. */
export async function toastOf(res: Response): Promise<Toast | null> {
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!cookie) return null;
  return (await readToast(makeRequest("/", { cookie }))).toast;
}

/** Every toast a response flashes (a redirect may carry an answer and a note beside it). */
export async function toastsOf(res: Response): Promise<Toast[]> {
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!cookie) return [];
  return (await readToast(makeRequest("/", { cookie }))).toasts;
}

function isResponse(value: unknown): value is Response {
  return value instanceof Response;
}

expect.extend({
  toHaveRedirect(received: unknown, expected?: string | RegExp | object) {
    const { isNot, utils } = this;
    if (!isResponse(received)) {
      return {
        pass: false,
        message: () => `expected a Response, received ${utils.printReceived(received)}`,
      };
    }
    const location = locationOf(received);
    const redirect = received.status >= 300 && received.status < 400 && location !== null;
    let pass = redirect;
    if (redirect && expected !== undefined) {
      pass = expected instanceof RegExp ? expected.test(location) : this.equals(location, expected);
    }
    const what =
      expected === undefined ? "a redirect" : `a redirect to ${utils.printExpected(expected)}`;
    return {
      pass,
      message: () =>
        `expected the response ${isNot ? "not " : ""}to be ${what}, ` +
        `received status ${received.status} with Location ${utils.printReceived(location)}`,
      actual: location,
      expected,
    };
  },

  async toSendToast(received: unknown, expected?: Partial<Record<keyof Toast, unknown>>) {
    const { isNot, utils } = this;
    if (!isResponse(received)) {
      return {
        pass: false,
        message: () => `expected a Response, received ${utils.printReceived(received)}`,
      };
    }
    const toast = await toastOf(received);
    const pass =
      toast !== null &&
      (expected === undefined || this.equals(toast, expect.objectContaining(expected)));
    return {
      pass,
      message: () =>
        `expected the response ${isNot ? "not " : ""}to send a toast` +
        `${expected === undefined ? "" : ` like ${utils.printExpected(expected)}`}, ` +
        `received ${utils.printReceived(toast)}`,
      actual: toast,
      expected,
    };
  },
});

interface ResponseMatchers<R = unknown> {
  /** A 3xx with a Location equal to (a string, an asymmetric matcher) or matching (a RegExp) it. */
  toHaveRedirect(location?: string | RegExp): R;
  /** Sets the toast cookie; with `toast`, a toast with at least those fields (toMatchObject). */
  toSendToast(toast?: Partial<Record<keyof Toast, unknown>>): Promise<R>;
}

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends ResponseMatchers<T> {}
}
