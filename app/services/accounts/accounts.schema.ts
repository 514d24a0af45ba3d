import { z } from "zod";
import { email } from "./email.schema";

/** Input rules of the account forms, shared by the actions (server) and the forms (client). */

const password = z
  .string({ error: "Password is required" })
  .min(8, "Password must be at least 8 characters")
  .max(200, "Password is too long");

export const loginSchema = z.object({
  email,
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(200),
});

export const signupSchema = z.object({
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(100, "Name must be at most 100 characters"),
  email,
  password,
});

export const forgotSchema = z.object({ email });

export const resetSchema = z
  .object({
    token: z.string().min(1).max(200),
    password,
    confirmPassword: z.string({ error: "Confirm your password" }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
  });

/** The signup confirmation page: the password chosen at signup, typed again. */
export const confirmSignupSchema = z.object({
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(200),
});
