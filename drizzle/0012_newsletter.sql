CREATE TABLE "local_newsletter_domains" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"region" text NOT NULL,
	"records" jsonb NOT NULL,
	"verify_requested_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "local_newsletter_domains_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "newsletter_domains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"provider_domain_id" text NOT NULL,
	"name" text NOT NULL,
	"region" text DEFAULT 'us-east-1' NOT NULL,
	"status" text NOT NULL,
	"records" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"verification_error" text,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checks" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "newsletter_settings" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"logo_base64" text,
	"logo_type" text,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "newsletter_domains" ADD CONSTRAINT "newsletter_domains_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_settings" ADD CONSTRAINT "newsletter_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_settings" ADD CONSTRAINT "newsletter_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_domains_project_name_key" ON "newsletter_domains" USING btree ("project_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_domains_provider_id_key" ON "newsletter_domains" USING btree ("provider_domain_id");