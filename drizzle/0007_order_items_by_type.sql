-- The workshop board and the orders list filter orders by the supports they hold (issue 15).
CREATE INDEX "order_items_type_order_id_idx" ON "order_items" USING btree ("type","order_id");