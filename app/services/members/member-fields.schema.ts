import { z } from "zod";
import { MEMBER_ROLES } from "./member-roles";

/** The fields the members' schemas share (members.schema.ts, members-api.schema.ts). */
export const studioId = z
  .string({ error: "studioId is required" })
  .trim()
  .min(1, "studioId is required")
  .max(100, "studioId is too long");

export const role = z.enum(MEMBER_ROLES, { error: "Choose editor, developer or admin" });

export const memberId = z
  .string({ error: "memberId is required" })
  .trim()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "Invalid memberId")
  .transform((v) => v.toLowerCase());
