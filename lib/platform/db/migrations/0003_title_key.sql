DROP INDEX "products_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "title_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "products_title_trgm_idx" ON "products" USING gin ("title_key" gin_trgm_ops);--> statement-breakpoint
-- Backfill for catalogs stored before this column (new writes normalize in lib/catalog/store.ts).
UPDATE "products" SET "title_key" = trim(lower(regexp_replace("name" || ' ' || "brand", '[^[:alnum:]]+', ' ', 'g')));
