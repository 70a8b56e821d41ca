CREATE TABLE "promotion_code_uses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"promotion_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"customer_key" text NOT NULL,
	"discount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp with time zone,
	CONSTRAINT "promotion_code_uses_discount_check" CHECK ("promotion_code_uses"."discount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "promotion_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"label" text NOT NULL,
	"kind" text NOT NULL,
	"percent" integer,
	"amount" integer,
	"supports" text[] DEFAULT '{}'::text[] NOT NULL,
	"minimum_order" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"max_uses" integer,
	"max_uses_per_customer" integer,
	"first_order_only" boolean DEFAULT false NOT NULL,
	"combinable" boolean DEFAULT false NOT NULL,
	"paused_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	CONSTRAINT "promotion_codes_code_unique" UNIQUE("code"),
	CONSTRAINT "promotion_codes_kind_check" CHECK ("promotion_codes"."kind" in ('percent', 'amount')),
	CONSTRAINT "promotion_codes_value_check" CHECK (("promotion_codes"."kind" = 'percent' and "promotion_codes"."percent" between 1 and 100 and "promotion_codes"."amount" is null) or ("promotion_codes"."kind" = 'amount' and "promotion_codes"."amount" > 0 and "promotion_codes"."percent" is null)),
	CONSTRAINT "promotion_codes_minimum_check" CHECK ("promotion_codes"."minimum_order" >= 0),
	CONSTRAINT "promotion_codes_dates_check" CHECK ("promotion_codes"."ends_at" is null or "promotion_codes"."ends_at" > "promotion_codes"."starts_at"),
	CONSTRAINT "promotion_codes_limits_check" CHECK (coalesce("promotion_codes"."max_uses", 1) > 0 and coalesce("promotion_codes"."max_uses_per_customer", 1) > 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "promotion_code_uses" ADD CONSTRAINT "promotion_code_uses_promotion_id_promotion_codes_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotion_codes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_code_uses" ADD CONSTRAINT "promotion_code_uses_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_codes" ADD CONSTRAINT "promotion_codes_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_code_uses_order_promotion_idx" ON "promotion_code_uses" USING btree ("order_id","promotion_id");--> statement-breakpoint
CREATE INDEX "promotion_code_uses_promotion_idx" ON "promotion_code_uses" USING btree ("promotion_id","customer_key");--> statement-breakpoint
CREATE INDEX "promotion_codes_created_at_idx" ON "promotion_codes" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "promotion_codes_created_by_idx" ON "promotion_codes" USING btree ("created_by");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_check" CHECK ("orders"."discount" >= 0);