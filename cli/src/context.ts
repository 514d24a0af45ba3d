/** What every command gets: the typed client signed in with the token, and how to print. */
import { createStackShiftClient, unwrap, type StackShiftClient } from "@stackshift/client";
import { readSaved } from "./config.js";
import { CliError, EXIT, type Output } from "./output.js";

export type Context = { api: StackShiftClient; baseUrl: string; out: Output };

export const USER_AGENT = "stackshift-cli";

/** The dashboard's address: --url, STACKSHIFT_URL, then the one `stackshift login` saved. */
export function baseUrlOf(flag: string | undefined): string {
  const url = flag || process.env.STACKSHIFT_URL || readSaved().url;
  if (!url) {
    throw new CliError(
      "No dashboard address: pass --url, set STACKSHIFT_URL, or run 'stackshift login --url <address>'",
      EXIT.usage,
    );
  }
  return url.replace(/\/+$/, "");
}

/** STACKSHIFT_TOKEN, else the token `stackshift login` saved. Never printed. */
export function tokenOf(): string {
  const token = process.env.STACKSHIFT_TOKEN || readSaved().token;
  if (!token) {
    throw new CliError(
      "Not signed in: set STACKSHIFT_TOKEN or run 'stackshift login' (make a token in User Settings > API tokens)",
      EXIT.auth,
    );
  }
  return token;
}

export function context(url: string | undefined, out: Output): Context {
  const baseUrl = baseUrlOf(url);
  const api = createStackShiftClient({ baseUrl, token: tokenOf(), userAgent: USER_AGENT });
  return { api, baseUrl, out };
}

/**
 * A project by its studioId or _id (what the API takes), else by its exact name among the
 * caller's projects.
 */
export async function findProject(api: StackShiftClient, ref: string) {
  const direct = await api.GET("/api/app/{id}", { params: { path: { id: ref } } });
  if (direct.response.status !== 404) return unwrap(direct);
  let cursor: string | undefined;
  do {
    const page = unwrap(
      await api.GET("/api/app", {
        params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } },
      }),
    );
    const named = page.data.filter((p) => p.name === ref);
    if (named.length > 1) {
      throw new CliError(`Several projects are named '${ref}': use a studioId`, EXIT.refused, {
        studioIds: named.map((p) => p.studioId),
      });
    }
    if (named.length === 1) {
      return unwrap(
        await api.GET("/api/app/{id}", { params: { path: { id: named[0].studioId } } }),
      );
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  throw new CliError(`No project '${ref}' (a studioId, an _id or a project's name)`, EXIT.notFound);
}
