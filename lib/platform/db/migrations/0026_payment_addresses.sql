CREATE TABLE "chain_watchers" (
	"network" text PRIMARY KEY NOT NULL,
	"block" bigint,
	"head" bigint,
	"locked_until" timestamp with time zone,
	"locked_by" integer,
	"last_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coin_prices" (
	"coin" text PRIMARY KEY NOT NULL,
	"usd" text NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"held_usd" text,
	"held_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_addresses" (
	"network" text NOT NULL,
	"address" text NOT NULL,
	"invoice_id" text NOT NULL,
	"method" text NOT NULL,
	"asset" text NOT NULL,
	"currency" text NOT NULL,
	"decimals" integer NOT NULL,
	"pay_to" text NOT NULL,
	"salt" text NOT NULL,
	"factory" text NOT NULL,
	"amount_due" numeric(78, 0) NOT NULL,
	"exchange_rate" text NOT NULL,
	"confirmations" integer NOT NULL,
	"received" numeric(78, 0) DEFAULT 0 NOT NULL,
	"held" numeric(78, 0) DEFAULT 0 NOT NULL,
	"seen" numeric(78, 0) DEFAULT 0 NOT NULL,
	"seen_block" bigint,
	"checked_block" bigint,
	"applied" numeric(78, 0) DEFAULT 0 NOT NULL,
	"credited" numeric(78, 0) DEFAULT 0 NOT NULL,
	"credited_cents" bigint DEFAULT 0 NOT NULL,
	"flush_tx" text,
	"flush_sent_at" timestamp with time zone,
	"watch_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_addresses_network_address_pk" PRIMARY KEY("network","address")
);
--> statement-breakpoint
ALTER TABLE "payment_addresses" ADD CONSTRAINT "payment_addresses_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_addresses_invoice_idx" ON "payment_addresses" USING btree ("invoice_id","network");--> statement-breakpoint
CREATE INDEX "payment_addresses_watch_idx" ON "payment_addresses" USING btree ("network","watch_until");