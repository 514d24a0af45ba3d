CREATE TYPE "public"."domain_status" AS ENUM('pending', 'verified');--> statement-breakpoint
ALTER TABLE "local_sites" ADD COLUMN "domain_set_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "project_sites" ADD COLUMN "domain_status" "domain_status";--> statement-breakpoint
ALTER TABLE "project_sites" ADD COLUMN "domain_ssl" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "project_sites" ADD COLUMN "domain_records" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "project_sites" ADD COLUMN "domain_set_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "project_sites" ADD COLUMN "domain_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "project_sites" ADD COLUMN "domain_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "project_sites" ADD COLUMN "domain_error" text;--> statement-breakpoint
CREATE UNIQUE INDEX "project_sites_custom_domain_key" ON "project_sites" USING btree ("custom_domain");