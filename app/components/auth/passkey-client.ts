/**
 * The browser side of passkeys, shared by the login page's button and the settings section: JSON
 * posts to our own routes (same origin: the CSRF check reads the Origin the browser adds), and
 * the words for what went wrong. @simplewebauthn/browser is loaded on the first click.
 */

export type JsonAnswer = { ok: boolean; status: number; body: Record<string, unknown> };

/** POSTs `body` as JSON; the answer's JSON (or {} when it has none). Never throws on 4xx. */
export async function postJson(url: string, body: unknown): Promise<JsonAnswer> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  let parsed: Record<string, unknown> = {};
  try {
    const json: unknown = await res.json();
    if (json && typeof json === "object") parsed = json as Record<string, unknown>;
  } catch {
    // An empty or non-JSON answer: the status says enough.
  }
  return { ok: res.ok, status: res.status, body: parsed };
}

/** The server's own message, or a plain one for its status. */
export function answerError(answer: JsonAnswer): string {
  if (typeof answer.body.error === "string") return answer.body.error;
  if (answer.status === 429) return "Too many attempts. Please wait a few minutes and try again.";
  return "Something went wrong. Please try again.";
}

/**
 * What the browser's WebAuthn error means to the person. Cancelling (or the timeout) is
 * NotAllowedError: the most common one, and not a fault.
 */
export function ceremonyError(error: unknown, making: boolean): string {
  const name = error instanceof Error ? error.name : "";
  const code = (error as { code?: string } | null)?.code;
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" || name === "InvalidStateError") {
    return "This device already holds a passkey for your account.";
  }
  if (name === "NotAllowedError" || name === "AbortError") {
    return making
      ? "No passkey was made: the request was cancelled or timed out."
      : "No passkey was used: the request was cancelled or timed out.";
  }
  if (name === "SecurityError") return "Passkeys only work on this site's own address.";
  if (name === "NotSupportedError") return "This browser or device cannot use passkeys.";
  return making ? "The passkey could not be made. Try again." : "The passkey could not be used.";
}

export const loadWebAuthn = () => import("@simplewebauthn/browser");
