CREATE TYPE "public"."supplier" AS ENUM('demo', 'inventory');--> statement-breakpoint
CREATE TABLE "inventory_codes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inventory_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"product_id" text NOT NULL,
	"package_value" text NOT NULL,
	"code" text NOT NULL,
	"pin" text,
	"expiration_date" text,
	"batch" text NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"order_id" text,
	"reserved_at" timestamp with time zone,
	"sold_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "supplier" "supplier" DEFAULT 'demo' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "supplier" "supplier" DEFAULT 'demo' NOT NULL;--> statement-breakpoint
ALTER TABLE "inventory_codes" ADD CONSTRAINT "inventory_codes_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_codes" ADD CONSTRAINT "inventory_codes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_codes_code_idx" ON "inventory_codes" USING btree ("product_id","package_value","code");--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_codes_order_idx" ON "inventory_codes" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "inventory_codes_free_idx" ON "inventory_codes" USING btree ("product_id","package_value","id") WHERE "inventory_codes"."order_id" IS NULL;