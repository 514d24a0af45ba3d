ALTER TABLE "forms" ADD COLUMN "field_names" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- Existing forms: the first 100 names their submissions brought, oldest first (decision 030). Names
-- beyond them stay in those submissions and are shown in the other field when read.
UPDATE "forms" f SET "field_names" = coalesce((
  SELECT jsonb_agg(k.key ORDER BY k.first_seen, k.key) FROM (
    SELECT names.key, min(s.created_at) AS first_seen
    FROM "form_submissions" s CROSS JOIN LATERAL jsonb_object_keys(s.data) AS names(key)
    WHERE s.form_id = f.id
    GROUP BY names.key ORDER BY first_seen, names.key LIMIT 100) k), '[]'::jsonb);
