CREATE TABLE "saved_order_filters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"query" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_order_filters_user_name_unique" UNIQUE("user_id","name"),
	CONSTRAINT "saved_order_filters_name_check" CHECK (char_length("saved_order_filters"."name") between 1 and 60)
);
--> statement-breakpoint
ALTER TABLE "saved_order_filters" ADD CONSTRAINT "saved_order_filters_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;
