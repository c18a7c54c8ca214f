CREATE TYPE "public"."product_kind" AS ENUM('gift_card', 'esim', 'topup');--> statement-breakpoint
CREATE TYPE "public"."recipient_type" AS ENUM('none', 'phone_number', 'email');--> statement-breakpoint
CREATE TABLE "product_packages" (
	"product_id" text NOT NULL,
	"value" text NOT NULL,
	"face_value_minor" bigint NOT NULL,
	"data_mb" integer,
	"validity_days" integer,
	"position" integer NOT NULL,
	CONSTRAINT "product_packages_product_id_value_pk" PRIMARY KEY("product_id","value")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" "product_kind" NOT NULL,
	"brand" text NOT NULL,
	"brand_key" text NOT NULL,
	"country" text,
	"coverage" text[] NOT NULL,
	"region" text,
	"currency" text NOT NULL,
	"categories" text[] NOT NULL,
	"description" text NOT NULL,
	"redemption_instructions" text NOT NULL,
	"image" text NOT NULL,
	"recipient_type" "recipient_type" DEFAULT 'none' NOT NULL,
	"phone_prefixes" text[] DEFAULT '{}'::text[] NOT NULL,
	"in_stock" boolean DEFAULT true NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"popularity" integer DEFAULT 0 NOT NULL,
	"range_min_minor" bigint,
	"range_max_minor" bigint,
	"range_step_minor" bigint,
	"search_text" text NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, search_text)) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_packages" ADD CONSTRAINT "product_packages_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_kind_idx" ON "products" USING btree ("kind","is_test");--> statement-breakpoint
CREATE INDEX "products_coverage_idx" ON "products" USING gin ("coverage");--> statement-breakpoint
CREATE INDEX "products_brand_key_idx" ON "products" USING btree ("brand_key");--> statement-breakpoint
CREATE INDEX "products_search_trgm_idx" ON "products" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_search_vector_idx" ON "products" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "products_popularity_idx" ON "products" USING btree ("popularity");