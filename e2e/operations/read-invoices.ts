// Prints the ids of the invoices in the embedded database of DATA_DIR, as JSON (the backup test reads a restored copy).
import { withDatabase } from "@/lib/platform/db";
import { invoices } from "@/lib/platform/db/schema";

withDatabase("e2e read", (db) => db.select({ id: invoices.id }).from(invoices)).then(
  (rows) => {
    console.log(JSON.stringify(rows.map((r) => r.id)));
    process.exit(0);
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
