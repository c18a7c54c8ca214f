-- Answers kept before ids were scoped by payer get an empty one, which no payment verifies as: they still answer
-- their own retries (looked up by id and payment), and the upkeep deletes them within a day.
ALTER TABLE "paid_answers" ADD COLUMN "payer" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "paid_answers" ALTER COLUMN "payer" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "paid_answers" DROP CONSTRAINT "paid_answers_pkey";--> statement-breakpoint
ALTER TABLE "paid_answers" ADD CONSTRAINT "paid_answers_payment_id_payer_pk" PRIMARY KEY("payment_id","payer");
