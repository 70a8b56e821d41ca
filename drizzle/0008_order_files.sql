CREATE TABLE "order_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"storage_key" text NOT NULL,
	"name" text NOT NULL,
	"support" text NOT NULL,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"crc32" bigint NOT NULL,
	"uploaded_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"preview_status" text DEFAULT 'pending' NOT NULL,
	"thumbnail_key" text,
	"preview_key" text,
	"width" integer,
	"height" integer,
	"duration_seconds" integer,
	"preview_attempts" integer DEFAULT 0 NOT NULL,
	"rework_requested_at" timestamp with time zone,
	"rework_comment" text,
	"download_count" integer DEFAULT 0 NOT NULL,
	"last_downloaded_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "order_files_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "order_files_kind_check" CHECK ("order_files"."kind" in ('image', 'video', 'other')),
	CONSTRAINT "order_files_preview_status_check" CHECK ("order_files"."preview_status" in ('pending', 'ready', 'none', 'failed')),
	CONSTRAINT "order_files_sha256_check" CHECK ("order_files"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "files_published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "files_expire_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "files_reminder_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "files_deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_token_hash" text;--> statement-breakpoint
ALTER TABLE "order_files" ADD CONSTRAINT "order_files_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_files_order_name_idx" ON "order_files" USING btree ("order_id","name") WHERE "order_files"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "order_files_order_id_idx" ON "order_files" USING btree ("order_id","support","name");--> statement-breakpoint
CREATE INDEX "order_files_preview_pending_idx" ON "order_files" USING btree ("created_at") WHERE "order_files"."preview_status" = 'pending';--> statement-breakpoint
CREATE INDEX "orders_files_expire_at_idx" ON "orders" USING btree ("files_expire_at") WHERE "orders"."files_expire_at" is not null and "orders"."files_deleted_at" is null;