ALTER TABLE "settlements" ADD COLUMN "lease_holder" integer;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "locked_by" integer;