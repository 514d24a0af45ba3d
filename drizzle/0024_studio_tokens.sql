CREATE TABLE "external_deletions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"target" text NOT NULL,
	"resource_id" text NOT NULL,
	"project_name" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "local_studio_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"studio_id" text NOT NULL,
	"label" text NOT NULL,
	"role" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "local_studio_tokens" ADD CONSTRAINT "local_studio_tokens_studio_id_local_studios_id_fk" FOREIGN KEY ("studio_id") REFERENCES "public"."local_studios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "external_deletions_resource_key" ON "external_deletions" USING btree ("target","resource_id");--> statement-breakpoint
CREATE INDEX "external_deletions_due_idx" ON "external_deletions" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE INDEX "local_studio_tokens_studio_idx" ON "local_studio_tokens" USING btree ("studio_id","created_at");