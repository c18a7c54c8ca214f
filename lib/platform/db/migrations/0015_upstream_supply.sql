ALTER TYPE "public"."supplier" ADD VALUE 'upstream';--> statement-breakpoint
CREATE TABLE "upstream_purchases" (
	"order_id" text PRIMARY KEY NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"asks" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'buying' NOT NULL,
	"request" text,
	"upstream_invoice_id" text,
	"upstream_order_id" text,
	"cost_cents" bigint,
	"held_since" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_packages" ADD COLUMN "cost_cents" bigint;--> statement-breakpoint
ALTER TABLE "upstream_purchases" ADD CONSTRAINT "upstream_purchases_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "upstream_purchases_status_idx" ON "upstream_purchases" USING btree ("status");--> statement-breakpoint
CREATE INDEX "upstream_purchases_invoice_idx" ON "upstream_purchases" USING btree ("upstream_invoice_id");