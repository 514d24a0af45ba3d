ALTER TABLE "email_changes" ADD COLUMN "old_email" text;--> statement-breakpoint
ALTER TABLE "email_changes" ADD COLUMN "revert_token_hash" text;--> statement-breakpoint
ALTER TABLE "email_changes" ADD COLUMN "revert_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_changes" ADD COLUMN "reverted_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "email_changes_revert_token_key" ON "email_changes" USING btree ("revert_token_hash");--> statement-breakpoint
-- custom SQL (keep when regenerating)
-- Sessions are stored under the sha256 of the id their cookie carries (app/services/sessions.server.ts); live sessions survive.
UPDATE "sessions" SET "id" = encode(sha256(convert_to("id", 'UTF8')), 'hex');
