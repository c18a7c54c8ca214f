CREATE TABLE "address_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"asset" text NOT NULL,
	"currency" text NOT NULL,
	"decimals" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"to_address" text,
	"reason" text NOT NULL,
	"status" text DEFAULT 'due' NOT NULL,
	"tx" text,
	"raw" text,
	"expiry" text,
	"superseded" text[],
	"locked_until" timestamp with time zone,
	"locked_by" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "address_transfers" (
	"network" text NOT NULL,
	"id" text NOT NULL,
	"address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "address_transfers_network_id_pk" PRIMARY KEY("network","id")
);
--> statement-breakpoint
ALTER TABLE "chain_watchers" ADD COLUMN "cursor" text;--> statement-breakpoint
ALTER TABLE "payment_addresses" ADD COLUMN "refund_address" text;--> statement-breakpoint
ALTER TABLE "address_refunds" ADD CONSTRAINT "address_refunds_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "address_refunds_due_idx" ON "address_refunds" USING btree ("status","locked_until");--> statement-breakpoint
CREATE INDEX "address_refunds_invoice_idx" ON "address_refunds" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "settlements_transaction_idx" ON "settlements" USING btree ("transaction");