CREATE TABLE "paid_answers" (
	"payment_id" text PRIMARY KEY NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"body" text NOT NULL,
	"content_type" text NOT NULL,
	"payment_response" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "paid_answers_created_idx" ON "paid_answers" USING btree ("created_at");