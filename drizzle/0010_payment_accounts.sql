CREATE TABLE "payment_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"account_name" text NOT NULL,
	"publishable_key" text NOT NULL,
	"secret_key_encrypted" text NOT NULL,
	"secret_key_last4" text NOT NULL,
	"api_version" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_accounts" ADD CONSTRAINT "payment_accounts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_accounts" ADD CONSTRAINT "payment_accounts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_accounts_project_idx" ON "payment_accounts" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_accounts_project_pk_key" ON "payment_accounts" USING btree ("project_id","publishable_key");