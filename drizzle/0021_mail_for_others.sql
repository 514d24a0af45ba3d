CREATE TABLE "form_mail_days" (
	"project_id" uuid NOT NULL,
	"day" date NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"held" integer DEFAULT 0 NOT NULL,
	"first_held_at" timestamp with time zone,
	CONSTRAINT "form_mail_days_project_id_day_pk" PRIMARY KEY("project_id","day")
);
--> statement-breakpoint
CREATE TABLE "form_notification_addresses" (
	"form_id" uuid NOT NULL,
	"email" text NOT NULL,
	"token_hash" text,
	"token_expires_at" timestamp with time zone,
	"mailed_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "form_notification_addresses_form_id_email_pk" PRIMARY KEY("form_id","email")
);
--> statement-breakpoint
ALTER TABLE "form_mail_days" ADD CONSTRAINT "form_mail_days_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_notification_addresses" ADD CONSTRAINT "form_notification_addresses_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "form_notification_addresses_token_key" ON "form_notification_addresses" USING btree ("token_hash");--> statement-breakpoint
-- Addresses set before confirmation existed: a row each, unconfirmed and never mailed. Members of
-- the project keep getting mail; anyone else waits for an admin's Resend and their own click.
INSERT INTO "form_notification_addresses" ("form_id", "email")
SELECT f."id", lower(e.value) FROM "forms" f, jsonb_array_elements_text(f."notification_emails") AS e(value)
ON CONFLICT DO NOTHING;
