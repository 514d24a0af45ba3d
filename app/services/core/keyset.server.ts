import { InvalidError } from "./errors";
import { UUID } from "~/utils/uuid";

/**
 * What every list's keyset pages and search boxes share: the cursor of the last row shown, and a
 * typed search term taken literally in a LIKE.
 */

/** `%`, `_` and `\` typed in a search box match themselves, not any text. */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// ---------------------------------------------------------------------------------------------
// Cursors that keep PostgreSQL's microseconds: base64url of the last row's (created_at, id) as
// PostgreSQL prints them. A JavaScript Date would round them to milliseconds and skip or repeat
// rows made in the same millisecond (the project list, where thousands are made by scripts).

const CURSOR_TS = /^(19[7-9]\d|[2-9]\d{3})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString("base64url");
}

/** Throws InvalidError (400) for anything that is not a cursor we issued. */
export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const invalid = () => new InvalidError("Invalid cursor", { cursor: ["Invalid cursor"] });
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 2) throw invalid();
  const [createdAt, id] = value as unknown[];
  if (typeof createdAt !== "string" || typeof id !== "string") throw invalid();
  if (!CURSOR_TS.test(createdAt) || !UUID.test(id)) throw invalid();
  // Reject impossible dates (month 13, 30 February) before PostgreSQL does with a 500.
  const millis = createdAt.slice(0, 23);
  const parsed = new Date(`${millis}Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 23) !== millis) {
    throw invalid();
  }
  return { createdAt, id };
}

// ---------------------------------------------------------------------------------------------
// Cursors of a time and an id read as a Date (tickets by activity, form submissions by arrival):
// a page link that is not one we issued starts the list over instead of failing.

export function encodeTimeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString("base64url");
}

export function decodeTimeCursor(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor || cursor.length > 200) return null;
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const time = Date.parse(at ?? "");
  if (Number.isNaN(time) || !UUID.test(id ?? "")) return null;
  return { at: new Date(time), id };
}
