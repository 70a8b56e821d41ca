CREATE TABLE "pa_flows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"order_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"invoice_id" uuid,
	"credit_note_id" uuid,
	"document_number" text NOT NULL,
	"status_code" integer,
	"status_amount" integer,
	"status_date" timestamp with time zone,
	"dedupe_key" text NOT NULL,
	"tracking_id" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"flow_id" text,
	"deposited_at" timestamp with time zone,
	"pa_status" integer,
	"pa_status_at" timestamp with time zone,
	"pa_reason" text,
	"is_demo" boolean DEFAULT false NOT NULL,
	CONSTRAINT "pa_flows_dedupe_key_unique" UNIQUE("dedupe_key"),
	CONSTRAINT "pa_flows_tracking_id_unique" UNIQUE("tracking_id"),
	CONSTRAINT "pa_flows_kind_check" CHECK ("pa_flows"."kind" in ('invoice', 'credit_note', 'status'))
);
--> statement-breakpoint
CREATE TABLE "pa_received_statuses" (
	"status_flow_id" text PRIMARY KEY NOT NULL,
	"pa_flow_id" uuid,
	"document_number" text NOT NULL,
	"code" integer NOT NULL,
	"reason" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "invoices_order_id_idx";--> statement-breakpoint
DROP INDEX "invoices_adjustment_id_idx";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "replaces_invoice_id" uuid;--> statement-breakpoint
ALTER TABLE "pa_flows" ADD CONSTRAINT "pa_flows_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pa_flows" ADD CONSTRAINT "pa_flows_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pa_flows" ADD CONSTRAINT "pa_flows_credit_note_id_credit_notes_id_fk" FOREIGN KEY ("credit_note_id") REFERENCES "public"."credit_notes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pa_received_statuses" ADD CONSTRAINT "pa_received_statuses_pa_flow_id_pa_flows_id_fk" FOREIGN KEY ("pa_flow_id") REFERENCES "public"."pa_flows"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pa_flows_due_idx" ON "pa_flows" USING btree ("next_at") WHERE "pa_flows"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "pa_flows_order_id_idx" ON "pa_flows" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "pa_flows_invoice_id_idx" ON "pa_flows" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "pa_flows_credit_note_id_idx" ON "pa_flows" USING btree ("credit_note_id");--> statement-breakpoint
CREATE INDEX "pa_flows_document_number_idx" ON "pa_flows" USING btree ("document_number");--> statement-breakpoint
CREATE INDEX "pa_received_statuses_pa_flow_id_idx" ON "pa_received_statuses" USING btree ("pa_flow_id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_replaces_invoice_id_invoices_id_fk" FOREIGN KEY ("replaces_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_replaces_invoice_id_idx" ON "invoices" USING btree ("replaces_invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_order_id_idx" ON "invoices" USING btree ("order_id") WHERE "invoices"."adjustment_id" is null and "invoices"."replaces_invoice_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_adjustment_id_idx" ON "invoices" USING btree ("adjustment_id") WHERE "invoices"."replaces_invoice_id" is null;