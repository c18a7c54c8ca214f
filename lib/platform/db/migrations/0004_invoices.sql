CREATE TYPE "public"."invoice_status" AS ENUM('unpaid', 'paid', 'fulfilling', 'complete', 'expired', 'denied', 'payment_error');--> statement-breakpoint
CREATE TYPE "public"."order_status" AS ENUM('created', 'processing', 'delivered', 'failed', 'refunded');--> statement-breakpoint
CREATE TABLE "affiliates" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"status" "invoice_status" DEFAULT 'unpaid' NOT NULL,
	"payer" text NOT NULL,
	"price_usdc" bigint NOT NULL,
	"affiliate_id" text,
	"source" text DEFAULT 'x402' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"delivery_status" text DEFAULT 'pending' NOT NULL,
	"error_code" text,
	"payment_network" text,
	"payment_tx" text,
	"payment_payer" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"invoice_id" text NOT NULL,
	"position" integer NOT NULL,
	"product_id" text NOT NULL,
	"product_name" text NOT NULL,
	"product_kind" "product_kind" NOT NULL,
	"package_value" text NOT NULL,
	"face_value_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"price_usdc" bigint NOT NULL,
	"recipient" text,
	"status" "order_status" DEFAULT 'created' NOT NULL,
	"error_code" text,
	"redemption" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_affiliate_id_affiliates_id_fk" FOREIGN KEY ("affiliate_id") REFERENCES "public"."affiliates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_payer_idx" ON "invoices" USING btree ("payer","created_at");--> statement-breakpoint
CREATE INDEX "invoices_status_expiry_idx" ON "invoices" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "orders_invoice_idx" ON "orders" USING btree ("invoice_id","position");