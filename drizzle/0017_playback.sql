CREATE TABLE "order_file_media" (
	"file_id" uuid PRIMARY KEY NOT NULL,
	"caption" text,
	"taken_at" timestamp with time zone,
	"playback" text,
	"playback_key" text,
	"playback_content_type" text,
	"playback_size_bytes" bigint,
	"playback_attempts" integer DEFAULT 0 NOT NULL,
	"chapters" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_file_media_playback_check" CHECK ("order_file_media"."playback" in ('pending', 'master', 'rendition', 'none')),
	CONSTRAINT "order_file_media_caption_check" CHECK (char_length("order_file_media"."caption") <= 500)
);
--> statement-breakpoint
ALTER TABLE "order_file_media" ADD CONSTRAINT "order_file_media_file_id_order_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."order_files"("id") ON DELETE cascade ON UPDATE no action;