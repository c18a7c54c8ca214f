CREATE TYPE "public"."topup_status" AS ENUM('pending', 'credited', 'failed');--> statement-breakpoint
CREATE TABLE "balance_topups" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"amount_usdc" bigint NOT NULL,
	"status" "topup_status" NOT NULL,
	"network" text NOT NULL,
	"transaction" text NOT NULL,
	"payer" text,
	"ledger_entry_id" bigint,
	"hold_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"credited_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "balance_topups" ADD CONSTRAINT "balance_topups_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_topups" ADD CONSTRAINT "balance_topups_ledger_entry_id_ledger_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "balance_topups_transaction_idx" ON "balance_topups" USING btree ("network","transaction");--> statement-breakpoint
CREATE INDEX "balance_topups_merchant_idx" ON "balance_topups" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE INDEX "balance_topups_pending_idx" ON "balance_topups" USING btree ("status") WHERE "balance_topups"."status" = 'pending';