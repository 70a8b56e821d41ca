-- Issue 14, security: the acceptance of the terms of sale (version and date) on accounts and orders,
-- and the one-time setup codes of /setup-super-admin (kept hashed; one per server start while the
-- shop has no administrator, all deleted when the first administrator is created).
ALTER TABLE "user" ADD COLUMN "terms_version" text;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "terms_accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "terms_version" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "terms_accepted_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "setup_code" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
-- Accounts created before e-mail verification existed: their owners signed in and ordered with them
-- for months; treating them as unproven would let a magic link delete their passwords.
UPDATE "user" SET "email_verified" = true WHERE "email_verified" = false;--> statement-breakpoint
-- Password-reset links issued before their identifiers were hashed: at most an hour old, dropped.
DELETE FROM "verification" WHERE "identifier" LIKE 'reset-password:%';
