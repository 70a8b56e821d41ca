CREATE TABLE "order_review_drops" (
	"order_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"name" text NOT NULL,
	"support" text NOT NULL,
	"dropped_at" timestamp with time zone NOT NULL,
	CONSTRAINT "order_review_drops_order_id_file_id_pk" PRIMARY KEY("order_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "order_reviews" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"max_drop_percent" integer NOT NULL,
	"supports" jsonb NOT NULL,
	"file_count" integer NOT NULL,
	"reminder_sent_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"closed_by" text,
	"dropped_count" integer,
	"refund_cents" integer,
	CONSTRAINT "order_reviews_percent_check" CHECK ("order_reviews"."max_drop_percent" between 0 and 100),
	CONSTRAINT "order_reviews_closed_by_check" CHECK ("order_reviews"."closed_by" in ('customer', 'system'))
);
--> statement-breakpoint
ALTER TABLE "order_review_drops" ADD CONSTRAINT "order_review_drops_order_id_order_reviews_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order_reviews"("order_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_review_drops" ADD CONSTRAINT "order_review_drops_file_id_order_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."order_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_reviews" ADD CONSTRAINT "order_reviews_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_review_drops_file_idx" ON "order_review_drops" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "order_reviews_open_idx" ON "order_reviews" USING btree ("ends_at") WHERE "order_reviews"."closed_at" is null;