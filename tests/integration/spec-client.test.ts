/**
 * The specification client (tests/spec-client/) and decision 032's table of differences: a field
 * of the specification's entities that an answer renames or leaves out fails, unless the table's
 * "Specification fields absent" column names it; and that column names only real fields.
 */
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { loader as getProject } from "~/routes/api.app.$id";
import { call, makeRequest } from "../helpers";
import {
  DIFFERENCES_RECORD,
  recordedAbsences,
  specProblems,
  type Answer,
} from "../spec-client/check";
import { ENTITIES, type EntityName } from "../spec-client/entities";
import { actor, ownedProject } from "./members-support";

type SchemaDef = { type: string; innerType?: z.ZodType; element?: z.ZodType };

/** The schema a dotted path names in an entity (undefined when it names nothing). */
function fieldSchema(entity: EntityName, dotted: string[]): z.ZodType | undefined {
  let schema: z.ZodType | undefined = ENTITIES[entity];
  for (const key of dotted) {
    // Through nullable, optional and arrays to the object that holds the key.
    for (;;) {
      const def: SchemaDef | undefined = (schema as { def?: SchemaDef } | undefined)?.def;
      if (def?.innerType) schema = def.innerType;
      else if (def?.type === "array") schema = def.element;
      else break;
    }
    const shape: Record<string, z.ZodType> | undefined = (
      schema as { shape?: Record<string, z.ZodType> } | undefined
    )?.shape;
    schema = shape?.[key];
    if (!schema) return undefined;
  }
  return schema;
}

const product = {
  id: "pricing-starter",
  name: "Starter plan",
  active: true,
  created: 1_768_478_400,
  updated: 1_768_478_400,
  price: { type: "recurring", unit_amount: 900, product: "pricing-starter" },
};
const productsAnswer = (data: unknown[]): Answer => ({
  method: "post",
  path: "/api/payments/stripe",
  status: 200,
  body: { statusCode: 200, data, hasMore: false },
  url: "/api/payments/stripe?resource=products&action=list",
});

let entity: Record<string, unknown>;

beforeAll(async () => {
  const owner = await actor();
  const project = await ownedProject(owner);
  const res = await call(
    getProject,
    makeRequest(`/api/app/${project.studioId}`, { cookie: owner.cookie }),
    { id: project.studioId },
  );
  entity = (await res.json()) as Record<string, unknown>;
});

describe("the specification client", () => {
  it("reads a project entity the API answers, with chromaticProjectToken absent as recorded", () => {
    expect(entity).not.toHaveProperty("chromaticProjectToken");
    const answer = { method: "get", path: "/api/app/{id}", status: 200, body: entity };
    expect(specProblems(answer)).toEqual([]);
  });

  it("fails a field left out without a row: siteUrl", () => {
    const { siteUrl: _left, ...body } = entity;
    expect(specProblems({ method: "get", path: "/api/app/{id}", status: 200, body })).toEqual([
      expect.stringContaining("Project.siteUrl is absent"),
    ]);
  });

  it("fails chromaticProjectToken too once the table no longer names it", () => {
    const markdown = fs
      .readFileSync(path.resolve(DIFFERENCES_RECORD), "utf8")
      .replace("`Project.chromaticProjectToken`", "");
    const answer = { method: "get", path: "/api/app/{id}", status: 200, body: entity };
    expect(specProblems(answer, recordedAbsences(markdown))).toEqual([
      expect.stringContaining("Project.chromaticProjectToken is absent"),
    ]);
  });

  it("allows an absence named for one operation in that operation's answers only", () => {
    const { members: _members, eventLogs: _logs, integrations: _integrations, ...row } = entity;
    const list: Answer = {
      method: "get",
      path: "/api/app",
      status: 200,
      body: { data: [row], nextCursor: null },
    };
    expect(specProblems(list)).toEqual([]);
    const one: Answer = { method: "get", path: "/api/app/{id}", status: 200, body: row };
    expect(specProblems(one)).toEqual([
      expect.stringContaining("Project.members is absent"),
      expect.stringContaining("Project.eventLogs is absent"),
      expect.stringContaining("Project.integrations is absent"),
    ]);
  });

  it("fails a renamed field: a price's unit_amount as unitAmount", () => {
    expect(specProblems(productsAnswer([product]))).toEqual([]);
    const renamed = {
      ...product,
      price: { type: "recurring", unitAmount: 900, product: product.id },
    };
    expect(specProblems(productsAnswer([renamed]))).toEqual([
      expect.stringContaining("PaymentProduct.price.unit_amount is absent"),
    ]);
  });

  it("fails a field of another type than the specification gives: created as a date string", () => {
    const dated = { ...product, created: "2026-01-15T12:00:00Z" };
    expect(specProblems(productsAnswer([dated]))).toEqual([
      expect.stringContaining("data[0].created"),
    ]);
  });
});

describe(`${DIFFERENCES_RECORD}'s absent-fields column`, () => {
  it("names only fields of the specification client's entities", () => {
    const absences = recordedAbsences();
    expect(absences.length).toBeGreaterThan(0);
    for (const { field } of absences) {
      const [entity, ...dotted] = field.split(".");
      expect(Object.keys(ENTITIES), field).toContain(entity);
      expect(fieldSchema(entity as EntityName, dotted), field).toBeDefined();
    }
  });
});
