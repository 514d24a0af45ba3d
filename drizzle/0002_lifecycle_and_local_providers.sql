CREATE TABLE "local_deploys" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" text NOT NULL,
	"seq" integer GENERATED ALWAYS AS IDENTITY (sequence name "local_deploys_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"state" text NOT NULL,
	"branch" text DEFAULT 'main' NOT NULL,
	"commit_ref" text,
	"title" text,
	"error_message" text,
	"context" text DEFAULT 'production' NOT NULL,
	"trigger_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "local_sites" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" "hosting_provider" NOT NULL,
	"name" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"custom_domain" text,
	"domain_aliases" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"repo_url" text,
	"published_deploy_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "local_studio_invites" (
	"id" text PRIMARY KEY NOT NULL,
	"studio_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"sent_count" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "local_studios" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"datasets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cors_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "local_studios_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "auto_deployed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "permanent_error_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "last_provision_error" text;--> statement-breakpoint
ALTER TABLE "local_deploys" ADD CONSTRAINT "local_deploys_site_id_local_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."local_sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_studio_invites" ADD CONSTRAINT "local_studio_invites_studio_id_local_studios_id_fk" FOREIGN KEY ("studio_id") REFERENCES "public"."local_studios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "local_deploys_site_idx" ON "local_deploys" USING btree ("site_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "local_deploys_trigger_key" ON "local_deploys" USING btree ("site_id","trigger_key");--> statement-breakpoint
CREATE UNIQUE INDEX "local_sites_key" ON "local_sites" USING btree ("provider","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "local_studio_invites_email_key" ON "local_studio_invites" USING btree ("studio_id","email");