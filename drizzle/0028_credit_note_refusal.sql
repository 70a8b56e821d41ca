ALTER TABLE "credit_notes" ADD COLUMN "refusal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The credit notes issued on a refusal before this column: their history event said so.
UPDATE "credit_notes" c SET "refusal" = true
WHERE EXISTS (
  SELECT 1 FROM "order_events" e
  WHERE e."order_id" = c."order_id" AND e."kind" = 'credit_note_issued'
    AND e."data"->>'creditNoteId' = c."id"::text AND e."data"->>'refusal' = 'true'
);
