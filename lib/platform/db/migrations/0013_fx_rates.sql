CREATE TABLE "fx_rates" (
	"as_of" text PRIMARY KEY NOT NULL,
	"base" text NOT NULL,
	"usd_per_unit" jsonb NOT NULL,
	"source" text NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
