ALTER TABLE "invoices" ADD COLUMN "payment_claim" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "payment_claim_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "run_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_usdc" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_tx" text;--> statement-breakpoint
CREATE INDEX "orders_due_idx" ON "orders" USING btree ("status","run_at");