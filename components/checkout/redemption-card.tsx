"use client";

import { CopyField } from "@/components/ui/copy-field";
import { QrCode } from "@/components/ui/qr-code";
import type { Redemption } from "./shop-api";

/** What an eSIM's steps are when its product gives none. */
const ESIM_STEPS = [
  "1. On your phone, open Settings, then Mobile data (or Cellular), then Add eSIM.",
  "2. Scan this QR code, or enter the activation code above by hand.",
  "3. Turn the eSIM on for data when you arrive.",
].join("\n");

/**
 * A product's instructions as one list: its numbered lines ("1. Go to …") as the steps of one ordered list that keeps
 * its numbers across headings ("On arrival:"), its other lines as they are.
 */
function Instructions({ text }: { text: string }) {
  const blocks: ({ kind: "text"; text: string } | { kind: "steps"; start: number; steps: string[] })[] = [];
  for (const line of text.split("\n").map((l) => l.trim())) {
    if (!line) continue;
    const step = /^(\d+)[.)]\s+(.*)$/.exec(line);
    const last = blocks.at(-1);
    if (!step) blocks.push({ kind: "text", text: line });
    else if (last?.kind === "steps") last.steps.push(step[2]!);
    else blocks.push({ kind: "steps", start: Number(step[1]), steps: [step[2]!] });
  }
  return (
    <div className="flex flex-col gap-1 text-sm text-slate-800">
      {blocks.map((b, i) =>
        b.kind === "text" ? (
          <p key={i} className={blocks[i + 1]?.kind === "steps" ? "font-semibold text-slate-900" : "text-slate-700"}>
            {b.text}
          </p>
        ) : (
          <ol key={i} start={b.start} className="flex list-decimal flex-col gap-1 pl-5">
            {b.steps.map((s, j) => (
              <li key={j}>{s}</li>
            ))}
          </ol>
        ),
      )}
    </div>
  );
}

/** One delivered order: its code, PIN, link, eSIM QR code, or top-up receipt, and how to redeem it. */
export function RedemptionCard({ redemption: r, title }: { redemption: Redemption; title: string }) {
  // An eSIM to install: the product's steps when it gives some, else the general ones (its note, if any, after them).
  // One list either way, never two that say the same.
  const esim = r.barcode_format === "QRCODE" && Boolean(r.barcode_value);
  const hasSteps = Boolean(r.instructions && /^\s*\d+[.)]\s/m.test(r.instructions));
  return (
    <article className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h3 className="font-semibold text-slate-900">{title}</h3>
      {r.code && <CopyField label="Code" value={r.code} />}
      {r.pin && <CopyField label="PIN" value={r.pin} />}
      {r.link && (
        <p>
          <a href={r.link} target="_blank" rel="noopener noreferrer" className="font-semibold break-all text-brand-700 underline">
            Open your gift card
          </a>
        </p>
      )}
      {esim && r.barcode_value && <QrCode value={r.barcode_value} label="QR code to install the eSIM" />}
      {r.barcode_value && <CopyField label="Activation code" value={r.barcode_value} />}
      {r.iccid && <CopyField label="ICCID" value={r.iccid} />}
      {r.other && <p className="text-sm text-slate-800">{r.other}</p>}
      {r.expiration_date && <p className="text-sm text-slate-700">Expires {r.expiration_date}</p>}
      {esim && !hasSteps && <Instructions text={ESIM_STEPS} />}
      {r.instructions && <Instructions text={r.instructions} />}
    </article>
  );
}
