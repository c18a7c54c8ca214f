ALTER TABLE "settlements" ADD COLUMN "pay_to" text;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "sent_block" bigint;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "next_check_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "settlements" ADD COLUMN "checks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "settlements_due_idx" ON "settlements" USING btree ("next_check_at") WHERE "settlements"."status" IN ('settling', 'pending');