/**
 * The OpenAPI operations of the newsletter settings and their saved templates (decision 045), in
 * a table of their own that openapi-operations.ts merges into the document's. Pure data.
 */
import { errorBody, okFlagBody } from "./api.schema";
import {
  newsletterQuerySchema,
  newsletterSettingsBody,
  renameTemplateApiSchema,
  savedTemplateBody,
  saveTemplateApiSchema,
} from "~/services/newsletter";
import type { Method, Operation } from "./openapi-operations";

const ERRORS = { 400: errorBody, 401: errorBody, 404: errorBody };
const WRITE_ERRORS = { ...ERRORS, 403: errorBody, 413: errorBody, 415: errorBody };

/** GET beside the AI Newsletter switch's PUT on /api/app/newsletter. */
export const getNewsletterSettingsOperation: Operation = {
  operationId: "getNewsletterSettings",
  tags: ["Newsletter"],
  summary:
    "The project's Newsletter settings by the specification's names, with socialLinks and savedTemplates",
  query: newsletterQuerySchema,
  responses: { 200: newsletterSettingsBody, ...ERRORS },
};

export const NEWSLETTER_TEMPLATE_API: Record<string, Partial<Record<Method, Operation>>> = {
  "/api/app/newsletter/templates": {
    post: {
      operationId: "saveNewsletterTemplate",
      tags: ["Newsletter"],
      summary:
        "Saves a newsletter template {studioId, name, subject, body}; 409 when the name is taken or the project keeps 50",
      body: saveTemplateApiSchema,
      responses: { 201: savedTemplateBody, ...WRITE_ERRORS, 409: errorBody },
    },
  },
  "/api/app/newsletter/templates/{templateId}": {
    patch: {
      operationId: "renameNewsletterTemplate",
      tags: ["Newsletter"],
      summary: "Renames a saved newsletter template {name}; 409 when the name is taken",
      pathParams: ["templateId"],
      body: renameTemplateApiSchema,
      responses: { 200: savedTemplateBody, ...WRITE_ERRORS, 409: errorBody },
    },
    delete: {
      operationId: "deleteNewsletterTemplate",
      tags: ["Newsletter"],
      summary: "Deletes a saved newsletter template",
      pathParams: ["templateId"],
      responses: { 200: okFlagBody, ...WRITE_ERRORS },
    },
  },
};
