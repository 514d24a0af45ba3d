CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"action" text NOT NULL,
	"actor_id" uuid,
	"actor_email" text NOT NULL,
	"project_id" uuid NOT NULL,
	"project_name" text NOT NULL,
	"project_owner_id" uuid,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_log_project_idx" ON "audit_log" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_owner_idx" ON "audit_log" USING btree ("project_owner_id","action");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_events_viewed_hour_idx" ON "ticket_events" USING btree ("ticket_id","actor_id",date_trunc('hour', "created_at" at time zone 'UTC')) WHERE "ticket_events"."event_name" = 'TicketViewed';--> statement-breakpoint
-- custom SQL (keep when regenerating)
-- The audit log is append-only: the app only inserts (app/services/audit-log.server.ts), and the
-- database refuses to change or remove a row, whoever asks (TRUNCATE, an operator's deliberate
-- act, is not a row change and stays possible).
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
