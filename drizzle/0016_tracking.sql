CREATE TABLE "parcel_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"parcel_number" text NOT NULL,
	"code" text NOT NULL,
	"label" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "parcel_events_code_check" CHECK (char_length("parcel_events"."code") between 1 and 10)
);
--> statement-breakpoint
CREATE TABLE "parcel_tracking" (
	"parcel_number" text PRIMARY KEY NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"final" boolean DEFAULT false NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "parcel_events_parcel_code_at_idx" ON "parcel_events" USING btree ("parcel_number","code","at");--> statement-breakpoint
CREATE INDEX "parcel_events_parcel_number_idx" ON "parcel_events" USING btree ("parcel_number","at");