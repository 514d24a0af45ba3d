import { z } from "zod";
import { idempotencyKey, projectName } from "~/services/projects";

/**
 * Input rules of deployments (deploying on request, retrying a failed deployment), shared by the
 * API routes and the failed-deployment page's form. No server imports.
 */

/** After this many failed retries the error is permanent ('Deployment Error', handled manually). */
export const MAX_DEPLOY_RETRIES = 3;

/** POST /api/app/deployments {id}: the project's _id or its studioId. */
export const requestDeploymentSchema = z.object({
  id: z
    .string({ error: "id is required" })
    .trim()
    .min(1, "id is required")
    .max(100, "id must be at most 100 characters"),
});

/** POST /api/app/retry {name, idempotencyKey}, and the 'Retry deploy' form. */
export const retryDeploymentSchema = z.object({
  name: projectName,
  idempotencyKey,
});
export type RetryDeploymentInput = z.infer<typeof retryDeploymentSchema>;

/** POST /api/app/rollback {studioId, deployId}: publish an earlier ready deployment again. */
export const rollbackApiSchema = z.object({
  studioId: z
    .string({ error: "studioId is required" })
    .trim()
    .min(1, "studioId is required")
    .max(100, "studioId is too long"),
  deployId: z
    .string({ error: "deployId is required" })
    .trim()
    .min(1, "deployId is required")
    .max(200, "deployId is too long"),
});

/** Vendor cursors (Vercel's are millisecond timestamps; the local provider's are numbers). */
const cursor = (field: "next" | "prev") =>
  z
    .string()
    .trim()
    .min(1, `${field} must not be empty`)
    .max(128, `${field} is not a valid cursor`)
    .regex(/^[A-Za-z0-9_.:-]+$/, `${field} is not a valid cursor`);

/**
 * GET /api/deployments/{studioId}: `?page=` for the first hosting provider (page numbers),
 * `?next=` or `?prev=` for the second (cursors). At most one of them; none is the first page.
 */
export const MAX_DEPLOYMENT_PAGE = 10_000;
export const listDeploymentsSchema = z
  .object({
    page: z.coerce
      .number({ error: "page must be a number" })
      .int("page must be a whole number")
      .min(1, "page must be at least 1")
      .max(MAX_DEPLOYMENT_PAGE, `page must be at most ${MAX_DEPLOYMENT_PAGE}`)
      .optional(),
    next: cursor("next").optional(),
    prev: cursor("prev").optional(),
  })
  .refine((q) => [q.page, q.next, q.prev].filter((v) => v !== undefined).length <= 1, {
    message: "Use only one of page, next and prev",
    path: ["page"],
  });
export type ListDeploymentsInput = z.infer<typeof listDeploymentsSchema>;
