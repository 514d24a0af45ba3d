CREATE TYPE "public"."creation_status" AS ENUM('pending', 'created', 'deployed', 'success', 'failed');--> statement-breakpoint
CREATE TYPE "public"."hosting_provider" AS ENUM('netlify', 'vercel');--> statement-breakpoint
CREATE TYPE "public"."member_role" AS ENUM('editor', 'developer', 'admin');--> statement-breakpoint
CREATE TYPE "public"."member_status" AS ENUM('invited', 'accepted');--> statement-breakpoint
CREATE TYPE "public"."request_status" AS ENUM('Pending', 'Rejected', 'Approved');--> statement-breakpoint
CREATE TYPE "public"."site_type" AS ENUM('business', 'enterprise');--> statement-breakpoint
CREATE TABLE "access_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"full_name" text NOT NULL,
	"business_email" text NOT NULL,
	"company_name" text,
	"website_address" text,
	"telephone_number" text,
	"number_of_employees" text,
	"additional_info" text,
	"request_status" "request_status" DEFAULT 'Pending' NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_logs" (
	"key" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"type" text NOT NULL,
	"content" text NOT NULL,
	"label" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"actor_id" uuid,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"user_id" uuid,
	"invited_email" text NOT NULL,
	"role" "member_role" DEFAULT 'editor' NOT NULL,
	"status" "member_status" DEFAULT 'invited' NOT NULL,
	"invitation_key" text,
	"invitation_expires_at" timestamp with time zone,
	"invited_by" uuid,
	"accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_sites" (
	"project_id" uuid NOT NULL,
	"provider" "hosting_provider" NOT NULL,
	"site_id" text,
	"url" text,
	"custom_domain" text,
	CONSTRAINT "project_sites_project_id_provider_pk" PRIMARY KEY("project_id","provider")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"studio_id" text NOT NULL,
	"name" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"site_type" "site_type" DEFAULT 'business' NOT NULL,
	"site_custom_domain" text,
	"site_url" text,
	"studio_custom_domain" text,
	"studio_url" text,
	"studio_sanity_id" text,
	"site_id" text,
	"studio_creation_status" "creation_status" DEFAULT 'pending' NOT NULL,
	"site_creation_status" "creation_status" DEFAULT 'pending' NOT NULL,
	"studio_details" jsonb,
	"site_details" jsonb,
	"is_site_on_vercel" boolean DEFAULT false NOT NULL,
	"schema_version" integer DEFAULT 1 NOT NULL,
	"version" text,
	"stackshift_version" text,
	"invite_to_project_accepted" boolean DEFAULT false NOT NULL,
	"studio_and_site_preview_token" text,
	"is_w_studio_v2" boolean DEFAULT false NOT NULL,
	"publish_forge_site_url" text,
	"is_c_studio_enabled" boolean DEFAULT false NOT NULL,
	"is_ai_newsletter_enabled" boolean DEFAULT false NOT NULL,
	"is_social_media_enabled" boolean DEFAULT false NOT NULL,
	"is_gpt3_enabled" boolean DEFAULT false NOT NULL,
	"is_visual_tests_enabled" boolean DEFAULT false NOT NULL,
	"is_end_to_end_tests_enabled" boolean DEFAULT false NOT NULL,
	"chromatic_project_token" text,
	"netlify_account_id" text,
	"deploy_retry_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"id_token" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"oidc_subject" text,
	"hide_studio_splash" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_logs" ADD CONSTRAINT "event_logs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_logs" ADD CONSTRAINT "event_logs_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_sites" ADD CONSTRAINT "project_sites_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_requests_created_idx" ON "access_requests" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "access_requests_email_idx" ON "access_requests" USING btree (lower("business_email"));--> statement-breakpoint
CREATE INDEX "event_logs_project_idx" ON "event_logs" USING btree ("project_id","timestamp");--> statement-breakpoint
CREATE UNIQUE INDEX "members_project_email_key" ON "members" USING btree ("project_id","invited_email");--> statement-breakpoint
CREATE UNIQUE INDEX "members_invitation_key" ON "members" USING btree ("invitation_key");--> statement-breakpoint
CREATE INDEX "members_user_idx" ON "members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "members_email_idx" ON "members" USING btree ("invited_email");--> statement-breakpoint
CREATE INDEX "outbox_created_idx" ON "outbox" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_studio_id_key" ON "projects" USING btree ("studio_id");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_owner_idempotency_key" ON "projects" USING btree ("owner_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "projects_created_idx" ON "projects" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "projects_owner_idx" ON "projects" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "users_oidc_subject_key" ON "users" USING btree ("oidc_subject");