ALTER TYPE "public"."supplier" ADD VALUE 'store';--> statement-breakpoint
ALTER TABLE "gift_cards" ADD COLUMN "order_id" text;--> statement-breakpoint
ALTER TABLE "gift_cards" ADD CONSTRAINT "gift_cards_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gift_cards_order_idx" ON "gift_cards" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "gift_cards" ADD CONSTRAINT "gift_cards_origin" CHECK (("gift_cards"."batch_id" IS NULL) <> ("gift_cards"."order_id" IS NULL));