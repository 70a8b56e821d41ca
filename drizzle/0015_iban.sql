CREATE TABLE "refund_bank_details" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reminder_sent_at" timestamp with time zone,
	"details" text,
	"masked" text,
	"received_at" timestamp with time zone,
	CONSTRAINT "refund_bank_details_encrypted_check" CHECK ("refund_bank_details"."details" is null or "refund_bank_details"."details" like 'v1.%'),
	CONSTRAINT "refund_bank_details_given_check" CHECK (("refund_bank_details"."details" is null) = ("refund_bank_details"."masked" is null) and ("refund_bank_details"."details" is null) = ("refund_bank_details"."received_at" is null))
);
--> statement-breakpoint
ALTER TABLE "refund_bank_details" ADD CONSTRAINT "refund_bank_details_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refund_bank_details_received_idx" ON "refund_bank_details" USING btree ("received_at");