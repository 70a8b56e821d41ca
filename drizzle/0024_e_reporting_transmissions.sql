CREATE TABLE "e_reporting_transmissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"deadline" date NOT NULL,
	"regime" text NOT NULL,
	"totals" jsonb NOT NULL,
	"file_name" text NOT NULL,
	"file_content" text NOT NULL,
	"status" text DEFAULT 'prepared' NOT NULL,
	"flow_id" text,
	"last_error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"prepared_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"deposited_at" timestamp with time zone,
	"deposited_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "e_reporting_transmissions_kind_check" CHECK ("e_reporting_transmissions"."kind" in ('transactions', 'payments')),
	CONSTRAINT "e_reporting_transmissions_status_check" CHECK ("e_reporting_transmissions"."status" in ('prepared', 'sent', 'exported', 'failed', 'deposited')),
	CONSTRAINT "e_reporting_transmissions_period_check" CHECK ("e_reporting_transmissions"."period_end" >= "e_reporting_transmissions"."period_start")
);
--> statement-breakpoint
ALTER TABLE "e_reporting_transmissions" ADD CONSTRAINT "e_reporting_transmissions_deposited_by_user_id_fk" FOREIGN KEY ("deposited_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "e_reporting_transmissions_period_idx" ON "e_reporting_transmissions" USING btree ("kind","period_start","period_end");--> statement-breakpoint
CREATE INDEX "e_reporting_transmissions_status_idx" ON "e_reporting_transmissions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "e_reporting_transmissions_deposited_by_idx" ON "e_reporting_transmissions" USING btree ("deposited_by");