ALTER TABLE "local_sites" ADD COLUMN "env" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "local_studios" ADD COLUMN "features" jsonb DEFAULT '{}'::jsonb NOT NULL;