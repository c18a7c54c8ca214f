CREATE TYPE "public"."settlement_status" AS ENUM('settling', 'pending', 'settled', 'failed');--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" text PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"identity" text NOT NULL,
	"purpose" text NOT NULL,
	"reference" text NOT NULL,
	"details" jsonb,
	"payer" text,
	"amount_usdc" bigint NOT NULL,
	"status" "settlement_status" NOT NULL,
	"transaction" text,
	"valid_until" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "signer_nonces" (
	"key" text PRIMARY KEY NOT NULL,
	"next_nonce" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "invoice_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_raw" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_expiry" text;--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_identity_idx" ON "settlements" USING btree ("network","identity");--> statement-breakpoint
CREATE INDEX "settlements_open_idx" ON "settlements" USING btree ("status","lease_until") WHERE "settlements"."status" IN ('settling', 'pending');--> statement-breakpoint
CREATE INDEX "settlements_reference_idx" ON "settlements" USING btree ("purpose","reference");