CREATE TYPE "public"."gift_card_batch_status" AS ENUM('processing', 'complete', 'partial', 'failed');--> statement-breakpoint
CREATE TYPE "public"."gift_card_hold_status" AS ENUM('held', 'spent', 'released');--> statement-breakpoint
CREATE TABLE "gift_card_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"value_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"price_cents" bigint NOT NULL,
	"refund_cents" bigint,
	"status" "gift_card_batch_status" DEFAULT 'processing' NOT NULL,
	"issued" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "gift_card_holds" (
	"gift_card_id" text NOT NULL,
	"invoice_id" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"covers_cents" bigint NOT NULL,
	"refunded_cents" bigint DEFAULT 0 NOT NULL,
	"status" "gift_card_hold_status" DEFAULT 'held' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gift_card_holds_gift_card_id_invoice_id_pk" PRIMARY KEY("gift_card_id","invoice_id")
);
--> statement-breakpoint
CREATE TABLE "gift_cards" (
	"id" text PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"code_sealed" text NOT NULL,
	"code_last4" text NOT NULL,
	"batch_id" text,
	"position" integer,
	"currency" text NOT NULL,
	"value_minor" bigint NOT NULL,
	"balance_minor" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "gift_card_cents" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_gift_card_cents" bigint;--> statement-breakpoint
ALTER TABLE "gift_card_batches" ADD CONSTRAINT "gift_card_batches_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_card_holds" ADD CONSTRAINT "gift_card_holds_gift_card_id_gift_cards_id_fk" FOREIGN KEY ("gift_card_id") REFERENCES "public"."gift_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_card_holds" ADD CONSTRAINT "gift_card_holds_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_cards" ADD CONSTRAINT "gift_cards_batch_id_gift_card_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."gift_card_batches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gift_card_batches_merchant_idx" ON "gift_card_batches" USING btree ("merchant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "gift_card_batches_due_idx" ON "gift_card_batches" USING btree ("run_at") WHERE "gift_card_batches"."status" = 'processing';--> statement-breakpoint
CREATE INDEX "gift_card_holds_invoice_idx" ON "gift_card_holds" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "gift_cards_code_idx" ON "gift_cards" USING btree ("code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "gift_cards_batch_idx" ON "gift_cards" USING btree ("batch_id","position");