CREATE TABLE "gift_card_ledger" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"card_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"order_id" uuid,
	"actor" text NOT NULL,
	CONSTRAINT "gift_card_ledger_amount_check" CHECK ("gift_card_ledger"."amount" > 0),
	CONSTRAINT "gift_card_ledger_kind_check" CHECK ("gift_card_ledger"."kind" in ('issued', 'spent', 'restored', 'expired', 'refunded')),
	CONSTRAINT "gift_card_ledger_order_check" CHECK ("gift_card_ledger"."kind" not in ('spent', 'restored') or "gift_card_ledger"."order_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "gift_card_sales" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"amount" integer NOT NULL,
	"buyer_name" text NOT NULL,
	"recipient_name" text NOT NULL,
	"recipient_email" text NOT NULL,
	"message" text,
	"delivery" text NOT NULL,
	"send_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gift_card_sales_amount_check" CHECK ("gift_card_sales"."amount" > 0),
	CONSTRAINT "gift_card_sales_delivery_check" CHECK ("gift_card_sales"."delivery" in ('email', 'print')),
	CONSTRAINT "gift_card_sales_send_on_check" CHECK ("gift_card_sales"."delivery" = 'print' or "gift_card_sales"."send_on" is not null)
);
--> statement-breakpoint
CREATE TABLE "gift_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sale_order_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"code_sealed" text NOT NULL,
	"code_last4" text NOT NULL,
	"initial_amount" integer NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"reminder_sent_at" timestamp with time zone,
	CONSTRAINT "gift_cards_sale_order_id_unique" UNIQUE("sale_order_id"),
	CONSTRAINT "gift_cards_code_hash_unique" UNIQUE("code_hash"),
	CONSTRAINT "gift_cards_initial_amount_check" CHECK ("gift_cards"."initial_amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "gift_card_ledger" ADD CONSTRAINT "gift_card_ledger_card_id_gift_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."gift_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_card_ledger" ADD CONSTRAINT "gift_card_ledger_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_card_sales" ADD CONSTRAINT "gift_card_sales_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_cards" ADD CONSTRAINT "gift_cards_sale_order_id_orders_id_fk" FOREIGN KEY ("sale_order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gift_card_ledger_card_id_idx" ON "gift_card_ledger" USING btree ("card_id","at");--> statement-breakpoint
CREATE INDEX "gift_card_ledger_order_id_idx" ON "gift_card_ledger" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "gift_cards_expires_at_idx" ON "gift_cards" USING btree ("expires_at");--> statement-breakpoint
-- A card's balance is the sum of its ledger (docs/decisions/037-gift-cards.md): an entry is never
-- changed nor removed, whoever connects, so no balance can be rewritten after the fact.
CREATE FUNCTION "gift_card_ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'gift_card_ledger is append-only: entries cannot be changed, deleted or truncated' USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "gift_card_ledger_append_only" BEFORE UPDATE OR DELETE ON "gift_card_ledger" FOR EACH ROW EXECUTE FUNCTION "gift_card_ledger_append_only"();--> statement-breakpoint
CREATE TRIGGER "gift_card_ledger_no_truncate" BEFORE TRUNCATE ON "gift_card_ledger" FOR EACH STATEMENT EXECUTE FUNCTION "gift_card_ledger_append_only"();
