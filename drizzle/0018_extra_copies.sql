CREATE TABLE "linked_orders" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"source_order_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"medium" text,
	"copies" integer,
	"file_ids" jsonb,
	"file_count" integer DEFAULT 0 NOT NULL,
	"gift" boolean DEFAULT false NOT NULL,
	"gift_message" text,
	"retention_days" integer,
	"applied_at" timestamp with time zone,
	"ordered_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "linked_orders_kind_check" CHECK ("linked_orders"."kind" in ('extra_copy', 'retention_extension')),
	CONSTRAINT "linked_orders_copy_check" CHECK ("linked_orders"."kind" <> 'extra_copy' or ("linked_orders"."medium" in ('usb', 'disc') and "linked_orders"."copies" between 1 and 20)),
	CONSTRAINT "linked_orders_extension_check" CHECK ("linked_orders"."kind" <> 'retention_extension' or "linked_orders"."retention_days" > 0)
);
--> statement-breakpoint
ALTER TABLE "linked_orders" ADD CONSTRAINT "linked_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "linked_orders" ADD CONSTRAINT "linked_orders_source_order_id_orders_id_fk" FOREIGN KEY ("source_order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "linked_orders_source_order_id_idx" ON "linked_orders" USING btree ("source_order_id");