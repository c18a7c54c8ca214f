import type { KeyRow, KeyStatus } from "@/lib/dashboard";
import type { RevokeKeyState } from "@/lib/dashboard/form-states";
import { Badge, type BadgeTone } from "./badge";
import { DataTable } from "./data-table";
import { formatDateTime } from "./format";
import { RevokeKeyButton } from "./revoke-key-button";

const STATUS_TONE: Record<KeyStatus, BadgeTone> = { active: "green", revoked: "grey", expired: "amber" };

/** The merchant's credentials: what each is, when it was made and last used, and a way to revoke the active ones. */
export function KeysTable({
  keys,
  signedInWith,
  revoke,
}: {
  keys: KeyRow[];
  signedInWith: string;
  revoke: (state: RevokeKeyState, form: FormData) => Promise<RevokeKeyState>;
}) {
  return (
    <DataTable
      caption="Your API keys"
      rows={keys}
      rowKey={(k) => k.id}
      columns={[
        {
          header: "Name",
          rowHeader: true,
          cell: (k) => (
            <span className="flex flex-col">
              <span>{k.name}</span>
              {k.id === signedInWith && <span className="text-xs font-normal text-slate-600">Signed in with this key</span>}
            </span>
          ),
        },
        { header: "Kind", cell: (k) => (k.kind === "business" ? "Business" : "Personal"), className: "whitespace-nowrap" },
        { header: "ID", cell: (k) => <code className="font-mono text-xs break-all text-slate-900">{k.publicId}</code>, className: "sm:whitespace-nowrap" },
        { header: "Created", cell: (k) => <time dateTime={k.createdAt.toISOString()}>{formatDateTime(k.createdAt)}</time>, className: "whitespace-nowrap" },
        {
          header: "Last used",
          cell: (k) =>
            k.lastUsedAt ? <time dateTime={k.lastUsedAt.toISOString()}>{formatDateTime(k.lastUsedAt)}</time> : <span className="text-slate-600">Never</span>,
          className: "whitespace-nowrap",
        },
        { header: "Status", cell: (k) => <Badge tone={STATUS_TONE[k.status]}>{k.status}</Badge> },
        {
          header: "Actions",
          cell: (k) =>
            k.status === "active" ? (
              <RevokeKeyButton id={k.id} name={k.name} publicId={k.publicId} signedInWith={k.id === signedInWith} action={revoke} />
            ) : (
              <span className="sr-only">None</span>
            ),
          phoneLabel: false,
          className: "text-right max-sm:mt-1",
        },
      ]}
    />
  );
}
