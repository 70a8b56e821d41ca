ALTER TABLE "order_adjustments" DROP CONSTRAINT "order_adjustments_status_check";--> statement-breakpoint
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_status_check";--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "adjustment_id" uuid;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_adjustment_id_order_adjustments_id_fk" FOREIGN KEY ("adjustment_id") REFERENCES "public"."order_adjustments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_due_idx" ON "refunds" USING btree ("order_id") WHERE "refunds"."status" = 'due';--> statement-breakpoint
ALTER TABLE "order_adjustments" ADD CONSTRAINT "order_adjustments_status_check" CHECK ("order_adjustments"."status" in ('awaiting_customer', 'paid', 'declined', 'refund_due', 'refunded', 'canceled'));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" in ('due', 'pending', 'succeeded', 'failed'));