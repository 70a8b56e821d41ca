-- Issue 15, the originals' journey: addresses frozen on orders, parcels and labels, receptions with
-- their counts and photos, reception supplements and reductions, workshop stages and due dates,
-- express turnaround and insurance of the return.
CREATE TABLE "order_addresses" (
	"order_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"company" text,
	"line1" text NOT NULL,
	"line2" text,
	"postal_code" text NOT NULL,
	"city" text NOT NULL,
	"country" text NOT NULL,
	"phone" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_addresses_order_id_kind_pk" PRIMARY KEY("order_id","kind"),
	CONSTRAINT "order_addresses_kind_check" CHECK ("order_addresses"."kind" in ('delivery', 'billing'))
);
--> statement-breakpoint
CREATE TABLE "order_adjustments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"reception_id" uuid,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"pricing" jsonb NOT NULL,
	"status" text DEFAULT 'awaiting_customer' NOT NULL,
	"decision" text,
	"access_token_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "order_adjustments_amount_check" CHECK ("order_adjustments"."amount" > 0),
	CONSTRAINT "order_adjustments_kind_check" CHECK ("order_adjustments"."kind" in ('supplement', 'reduction')),
	CONSTRAINT "order_adjustments_status_check" CHECK ("order_adjustments"."status" in ('awaiting_customer', 'paid', 'declined', 'refunded', 'canceled'))
);
--> statement-breakpoint
CREATE TABLE "reception_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reception_id" uuid NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"received_by" text NOT NULL,
	"received_by_name" text NOT NULL,
	"counts" jsonb NOT NULL,
	"remarks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receptions_order_id_unique" UNIQUE("order_id")
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"carrier" text NOT NULL,
	"parcel_number" text NOT NULL,
	"label_pdf" "bytea",
	"insured_value" integer DEFAULT 0 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipments_direction_check" CHECK ("shipments"."direction" in ('inbound', 'outbound'))
);
--> statement-breakpoint
DROP INDEX "invoices_order_id_idx";--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "adjustment_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "express_price" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "insurance_price" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "express" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "insured_value" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "stage" text DEFAULT 'awaiting_originals' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "adjustment_id" uuid;--> statement-breakpoint
ALTER TABLE "order_addresses" ADD CONSTRAINT "order_addresses_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_adjustments" ADD CONSTRAINT "order_adjustments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_adjustments" ADD CONSTRAINT "order_adjustments_reception_id_receptions_id_fk" FOREIGN KEY ("reception_id") REFERENCES "public"."receptions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reception_photos" ADD CONSTRAINT "reception_photos_reception_id_receptions_id_fk" FOREIGN KEY ("reception_id") REFERENCES "public"."receptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receptions" ADD CONSTRAINT "receptions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_adjustments_order_id_idx" ON "order_adjustments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_adjustments_reception_id_idx" ON "order_adjustments" USING btree ("reception_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_adjustments_one_open_idx" ON "order_adjustments" USING btree ("order_id") WHERE "order_adjustments"."status" = 'awaiting_customer';--> statement-breakpoint
CREATE INDEX "reception_photos_reception_id_idx" ON "reception_photos" USING btree ("reception_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_order_direction_idx" ON "shipments" USING btree ("order_id","direction");--> statement-breakpoint
CREATE INDEX "shipments_parcel_number_idx" ON "shipments" USING btree ("parcel_number");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_adjustment_id_order_adjustments_id_fk" FOREIGN KEY ("adjustment_id") REFERENCES "public"."order_adjustments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_adjustment_id_order_adjustments_id_fk" FOREIGN KEY ("adjustment_id") REFERENCES "public"."order_adjustments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_adjustment_id_idx" ON "invoices" USING btree ("adjustment_id");--> statement-breakpoint
CREATE INDEX "orders_workshop_board_idx" ON "orders" USING btree ("stage","due_at","created_at") WHERE "orders"."placed_at" is not null and "orders"."status" in ('pending', 'processing', 'completed');--> statement-breakpoint
CREATE INDEX "payments_adjustment_id_idx" ON "payments" USING btree ("adjustment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_order_id_idx" ON "invoices" USING btree ("order_id") WHERE "invoices"."adjustment_id" is null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_stage_check" CHECK ("orders"."stage" in ('awaiting_originals', 'received', 'digitising', 'quality_check', 'ready'));--> statement-breakpoint
-- Orders done before the workshop stages existed are at the last stage.
UPDATE "orders" SET "stage" = 'ready' WHERE "status" IN ('completed', 'shipped');--> statement-breakpoint
-- The addresses guests typed before addresses were frozen on orders become their delivery address.
INSERT INTO "order_addresses" ("order_id", "kind", "first_name", "last_name", "line1", "postal_code", "city", "country", "phone")
SELECT "id", 'delivery', coalesce("guest_first_name", ''), coalesce("guest_last_name", ''), "guest_address", "guest_postal_code", "guest_city", 'FR', "guest_phone"
FROM "orders"
WHERE coalesce(trim("guest_address"), '') <> '' AND coalesce(trim("guest_postal_code"), '') <> '' AND coalesce(trim("guest_city"), '') <> '';
