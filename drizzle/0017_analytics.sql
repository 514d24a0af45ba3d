CREATE TABLE "analytics_page_days" (
	"project_id" uuid NOT NULL,
	"day" date NOT NULL,
	"path" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_page_days_project_id_day_path_pk" PRIMARY KEY("project_id","day","path")
);
--> statement-breakpoint
CREATE TABLE "analytics_referrer_days" (
	"project_id" uuid NOT NULL,
	"day" date NOT NULL,
	"referrer" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_referrer_days_project_id_day_referrer_pk" PRIMARY KEY("project_id","day","referrer")
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "analytics_key" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_page_days" ADD CONSTRAINT "analytics_page_days_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_referrer_days" ADD CONSTRAINT "analytics_referrer_days_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "projects_analytics_key" ON "projects" USING btree ("analytics_key");