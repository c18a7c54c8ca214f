// Operator commands: `npm run admin -- <command>`. See `npm run admin -- help`; the commands are in scripts/admin-cli.ts.
import { adminCommand } from "./admin-cli";

adminCommand(process.argv.slice(2)).then((code) => process.exit(code));
