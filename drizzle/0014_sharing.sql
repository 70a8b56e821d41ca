CREATE TABLE "file_share_files" (
	"share_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	CONSTRAINT "file_share_files_share_id_file_id_pk" PRIMARY KEY("share_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "file_share_invitations" (
	"share_id" uuid NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_share_invitations_share_id_email_pk" PRIMARY KEY("share_id","email")
);
--> statement-breakpoint
CREATE TABLE "file_shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"token_sealed" text NOT NULL,
	"scope" text NOT NULL,
	"allow_downloads" boolean NOT NULL,
	"sharer_name" text NOT NULL,
	"label" text,
	"message" text,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"access_count" integer DEFAULT 0 NOT NULL,
	"last_access_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_shares_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "file_shares_scope_check" CHECK ("file_shares"."scope" in ('all', 'selection')),
	CONSTRAINT "file_shares_token_hash_check" CHECK ("file_shares"."token_hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "file_share_files" ADD CONSTRAINT "file_share_files_share_id_file_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."file_shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_share_files" ADD CONSTRAINT "file_share_files_file_id_order_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."order_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_share_invitations" ADD CONSTRAINT "file_share_invitations_share_id_file_shares_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."file_shares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_shares" ADD CONSTRAINT "file_shares_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "file_share_files_file_idx" ON "file_share_files" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "file_shares_order_idx" ON "file_shares" USING btree ("order_id","created_at");