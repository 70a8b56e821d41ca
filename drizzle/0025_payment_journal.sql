CREATE TABLE "payment_journal" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"recorded_at" timestamp (3) with time zone NOT NULL,
	"kind" text NOT NULL,
	"order_number" text NOT NULL,
	"document_number" text,
	"amount_cents" bigint NOT NULL,
	"method" text NOT NULL,
	"provider" text,
	"actor" text NOT NULL,
	"demo" boolean NOT NULL,
	"source_table" text NOT NULL,
	"source_id" text NOT NULL,
	"previous_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "payment_journal_kind_check" CHECK ("payment_journal"."kind" in ('payment_received', 'payment_validated', 'payment_rejected', 'refund'))
);
--> statement-breakpoint
CREATE TABLE "payment_journal_closures" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"period" text NOT NULL,
	"period_key" text NOT NULL,
	"closed_at" timestamp (3) with time zone NOT NULL,
	"first_seq" bigint,
	"last_seq" bigint,
	"chain_hash" text NOT NULL,
	"totals" jsonb NOT NULL,
	"perpetual_cents" bigint NOT NULL,
	"previous_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "payment_journal_closures_period_check" CHECK ("payment_journal_closures"."period" in ('day', 'month', 'year'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payment_journal_hash_idx" ON "payment_journal" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "payment_journal_recorded_at_idx" ON "payment_journal" USING btree ("recorded_at");--> statement-breakpoint
CREATE INDEX "payment_journal_order_number_idx" ON "payment_journal" USING btree ("order_number");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_journal_closures_period_idx" ON "payment_journal_closures" USING btree ("period","period_key");--> statement-breakpoint
-- The payment journal's rules in the database itself (docs/decisions/049-payment-journal.md,
-- docs/payment-journal.md). Entries are appended by triggers on the money tables, never by the
-- application: a new way of taking or giving back money writes a row in one of these tables and is
-- journaled with it, in its transaction, or not at all.
--
-- The canonical form of an entry, whose SHA-256 is its hash: a JSON array without spaces, its text
-- escaped as JSON.stringify and to_json both do (only « " », « \ » and control characters).
CREATE FUNCTION "payment_journal_canonical"(p_seq bigint, p_at timestamptz, p_kind text, p_order text, p_document text, p_amount bigint, p_method text, p_provider text, p_actor text, p_demo boolean, p_source_table text, p_source_id text, p_previous text) RETURNS text LANGUAGE sql STABLE AS $$
	SELECT '[' || concat_ws(',',
		to_json('soovenirs-payment-journal/1'::text)::text,
		p_seq::text,
		to_json(to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text,
		to_json(p_kind)::text,
		to_json(p_order)::text,
		coalesce(to_json(p_document)::text, 'null'),
		p_amount::text,
		to_json(p_method)::text,
		coalesce(to_json(p_provider)::text, 'null'),
		to_json(p_actor)::text,
		CASE WHEN p_demo THEN 'true' ELSE 'false' END,
		to_json(p_source_table)::text,
		to_json(p_source_id)::text,
		to_json(p_previous)::text) || ']'
$$;--> statement-breakpoint
-- Appends one entry after the head. The advisory lock (the head's, also taken by the closures) makes
-- two payments committing at the same instant two links of one chain; the primary key on seq
-- refuses a fork anyway. SECURITY DEFINER: the runtime role may read the journal, never write it,
-- and may not call this function itself (EXECUTE revoked below): only the triggers do.
CREATE FUNCTION "payment_journal_append"(p_kind text, p_order_id uuid, p_document text, p_amount bigint, p_method text, p_provider text, p_actor text, p_demo boolean, p_source_table text, p_source_id text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
	v_order text;
	v_seq bigint;
	v_previous text;
	v_at timestamptz;
BEGIN
	-- A logical copy of the whole database by its owner (npm run db:move) brings the entries
	-- themselves: the rows it copies into the money tables are not new money. Only the owner may
	-- skip: the runtime role setting the same variable changes nothing.
	IF current_setting('soovenirs.copying_rows', true) = 'on'
		AND session_user = (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = 'payment_journal'::regclass) THEN
		RETURN;
	END IF;
	PERFORM pg_advisory_xact_lock(hashtextextended('payment_journal', 0));
	SELECT number INTO v_order FROM orders WHERE id = p_order_id;
	SELECT seq, hash INTO v_seq, v_previous FROM payment_journal ORDER BY seq DESC LIMIT 1;
	v_seq := coalesce(v_seq, 0) + 1;
	v_previous := coalesce(v_previous, repeat('0', 64));
	-- Taken under the lock: the times follow the sequence.
	v_at := date_trunc('milliseconds', clock_timestamp());
	INSERT INTO payment_journal (seq, recorded_at, kind, order_number, document_number, amount_cents, method, provider, actor, demo, source_table, source_id, previous_hash, hash)
	VALUES (v_seq, v_at, p_kind, coalesce(v_order, ''), p_document, p_amount, p_method, p_provider, p_actor, p_demo, p_source_table, p_source_id, v_previous,
		encode(sha256(convert_to(payment_journal_canonical(v_seq, v_at, p_kind, coalesce(v_order, ''), p_document, p_amount, p_method, p_provider, p_actor, p_demo, p_source_table, p_source_id, v_previous), 'UTF8')), 'hex'));
END;
$$;--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION "payment_journal_append"(text, uuid, text, bigint, text, text, text, boolean, text, text) FROM PUBLIC;--> statement-breakpoint
-- A payment through a gateway (card, or whatever the gateway says) that became paid. Read again at
-- the commit (the triggers are deferred): the invoice of the same transaction is issued by then.
CREATE FUNCTION "payment_journal_on_payment"() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
	v_settles boolean;
	v_adjustment uuid;
	v_document text;
BEGIN
	SELECT settles_order, adjustment_id INTO v_settles, v_adjustment FROM payments WHERE id = NEW.id;
	IF coalesce(v_settles, false) OR v_adjustment IS NOT NULL THEN
		SELECT number INTO v_document FROM invoices WHERE order_id = NEW.order_id AND adjustment_id IS NOT DISTINCT FROM v_adjustment;
	END IF;
	PERFORM payment_journal_append('payment_received', NEW.order_id, v_document, NEW.amount::bigint, NEW.method, NEW.provider, NEW.provider, NEW.provider = 'sandbox', 'payments', NEW.id::text);
	RETURN NULL;
END;
$$;--> statement-breakpoint
-- A refund made (succeeded): its credit note, the gateway of its payment; demonstration money when
-- its credit note is one (a sandbox payment's).
CREATE FUNCTION "payment_journal_on_refund"() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
	v_document text;
	v_demo boolean;
	v_provider text;
BEGIN
	SELECT c.number, c.is_demo INTO v_document, v_demo FROM refunds r JOIN credit_notes c ON c.id = r.credit_note_id WHERE r.id = NEW.id;
	IF NEW.payment_id IS NOT NULL THEN
		SELECT provider INTO v_provider FROM payments WHERE id = NEW.payment_id;
	END IF;
	PERFORM payment_journal_append('refund', NEW.order_id, v_document, NEW.amount::bigint, NEW.method,
		CASE WHEN NEW.method = 'gateway' THEN v_provider END, NEW.actor,
		coalesce(v_demo, v_provider = 'sandbox', false), 'refunds', NEW.id::text);
	RETURN NULL;
END;
$$;--> statement-breakpoint
-- A bank transfer or a cheque, validated (paid) or rejected (failed) by the staff: the amount
-- awaited (the total less a gift card's part), the staff member from the order's history.
CREATE FUNCTION "payment_journal_on_order_payment"() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
	v_card bigint;
	v_actor text;
	v_document text;
BEGIN
	SELECT coalesce(sum(CASE kind WHEN 'spent' THEN amount WHEN 'restored' THEN -amount END), 0) INTO v_card
		FROM gift_card_ledger WHERE order_id = NEW.id AND kind IN ('spent', 'restored');
	SELECT actor INTO v_actor FROM order_events WHERE order_id = NEW.id AND kind IN ('payment_validated', 'payment_failed') ORDER BY id DESC LIMIT 1;
	IF NEW.payment_status = 'paid' THEN
		SELECT number INTO v_document FROM invoices WHERE order_id = NEW.id AND adjustment_id IS NULL;
	END IF;
	PERFORM payment_journal_append(CASE WHEN NEW.payment_status = 'paid' THEN 'payment_validated' ELSE 'payment_rejected' END,
		NEW.id, v_document, NEW.total_price::bigint - v_card, NEW.payment_method, NULL, coalesce(v_actor, 'system'), false, 'orders', NEW.id::text);
	RETURN NULL;
END;
$$;--> statement-breakpoint
-- A gift card spent on an order: a payment by gift card (its restoring is a refund, journaled there).
-- Demonstration money when the card was sold for sandbox money (its sale's invoice is a TEST one).
CREATE FUNCTION "payment_journal_on_gift_card"() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
	v_document text;
	v_demo boolean;
BEGIN
	SELECT number INTO v_document FROM invoices WHERE order_id = NEW.order_id AND adjustment_id IS NULL;
	SELECT i.is_demo INTO v_demo FROM gift_cards g JOIN invoices i ON i.order_id = g.sale_order_id AND i.adjustment_id IS NULL WHERE g.id = NEW.card_id;
	PERFORM payment_journal_append('payment_received', NEW.order_id, v_document, NEW.amount::bigint, 'gift_card', NULL, NEW.actor, coalesce(v_demo, false), 'gift_card_ledger', NEW.id::text);
	RETURN NULL;
END;
$$;--> statement-breakpoint
-- Deferred to the commit: in the transaction that moved the money (a rollback leaves no entry), once
-- its documents are issued, and holding the head's lock only for the commit's last instant.
CREATE CONSTRAINT TRIGGER "payment_journal_payment_inserted" AFTER INSERT ON "payments" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.status = 'paid') EXECUTE FUNCTION "payment_journal_on_payment"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payment_journal_payment_paid" AFTER UPDATE OF "status" ON "payments" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.status = 'paid' AND OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION "payment_journal_on_payment"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payment_journal_refund_inserted" AFTER INSERT ON "refunds" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.status = 'succeeded') EXECUTE FUNCTION "payment_journal_on_refund"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payment_journal_refund_succeeded" AFTER UPDATE OF "status" ON "refunds" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.status = 'succeeded' AND OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION "payment_journal_on_refund"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payment_journal_order_payment" AFTER UPDATE OF "payment_status" ON "orders" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.payment_status IN ('paid', 'failed') AND OLD.payment_status IS DISTINCT FROM NEW.payment_status AND NEW.payment_method IN ('transfer', 'cheque')) EXECUTE FUNCTION "payment_journal_on_order_payment"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payment_journal_gift_card_spent" AFTER INSERT ON "gift_card_ledger" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.kind = 'spent') EXECUTE FUNCTION "payment_journal_on_gift_card"();--> statement-breakpoint
-- Append-only, whoever connects (the runtime role is also refused the rights: runtime-role.server.ts).
CREATE FUNCTION "payment_journal_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION '% is append-only: entries and closures cannot be changed, deleted or truncated', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "payment_journal_append_only" BEFORE UPDATE OR DELETE ON "payment_journal" FOR EACH ROW EXECUTE FUNCTION "payment_journal_append_only"();--> statement-breakpoint
CREATE TRIGGER "payment_journal_no_truncate" BEFORE TRUNCATE ON "payment_journal" FOR EACH STATEMENT EXECUTE FUNCTION "payment_journal_append_only"();--> statement-breakpoint
CREATE TRIGGER "payment_journal_closures_append_only" BEFORE UPDATE OR DELETE ON "payment_journal_closures" FOR EACH ROW EXECUTE FUNCTION "payment_journal_append_only"();--> statement-breakpoint
CREATE TRIGGER "payment_journal_closures_no_truncate" BEFORE TRUNCATE ON "payment_journal_closures" FOR EACH STATEMENT EXECUTE FUNCTION "payment_journal_append_only"();
