CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor_name" text NOT NULL,
	"actor_role" text NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"subject_label" text,
	"before" jsonb,
	"after" jsonb,
	"keep_until" date NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at" desc);--> statement-breakpoint
CREATE INDEX "audit_log_actor_at_idx" ON "audit_log" USING btree ("actor_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_kind_at_idx" ON "audit_log" USING btree ("kind","at");--> statement-breakpoint
-- Append-only in the database itself (docs/decisions/017-audit-log.md): no UPDATE ever, and no
-- DELETE of an entry still within its retention period (keep_until), whoever connects.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'DELETE' THEN
		RAISE EXCEPTION 'audit_log is append-only: entries cannot be changed or truncated' USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF OLD.keep_until >= current_date THEN
		RAISE EXCEPTION 'audit_log: entry % is kept until %', OLD.id, OLD.keep_until USING ERRCODE = 'insufficient_privilege';
	END IF;
	RETURN OLD;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();--> statement-breakpoint
-- TRUNCATE skips row triggers: refused as a statement.
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();
