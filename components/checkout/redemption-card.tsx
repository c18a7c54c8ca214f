"use client";

import QRCode from "qrcode";
import { useEffect, useState } from "react";
import type { Redemption } from "./shop-api";

function CopyField({ label, value, mono = true }: { label: string; value: string; mono?: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex flex-col gap-1">
      <span className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{label}</span>
      <div className="flex items-center gap-2">
        <output className={`min-w-0 flex-1 rounded-lg bg-slate-100 px-3 py-2 break-all text-slate-900 ${mono ? "font-mono" : ""}`}>{value}</output>
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => {
              setCopied(true);
              setTimeout(() => setCopied(false), 1500);
            });
          }}
          className="h-10 shrink-0 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-900 hover:bg-slate-50"
        >
          {copied ? "Copied" : "Copy"}
          <span className="sr-only"> {label}</span>
        </button>
      </div>
    </div>
  );
}

function EsimQr({ value }: { value: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(value, { margin: 1, width: 220, errorCorrectionLevel: "M" }).then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [value]);
  return src ? (
    // A data URL made here: next/image has nothing to optimize.
    // eslint-disable-next-line @next/next/no-img-element
    <img src={src} width={220} height={220} alt="QR code to install the eSIM" className="rounded-lg bg-white p-1 ring-1 ring-slate-200" />
  ) : (
    <div className="size-[220px] animate-pulse rounded-lg bg-slate-100" aria-hidden="true" />
  );
}

/** One delivered order: its code, PIN, link, eSIM QR code with install steps, or top-up receipt. */
export function RedemptionCard({ redemption: r, name }: { redemption: Redemption; name: string }) {
  return (
    <article className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h3 className="font-semibold text-slate-900">
        {name} · {r.package_value}
      </h3>
      {r.code && <CopyField label="Code" value={r.code} />}
      {r.pin && <CopyField label="PIN" value={r.pin} />}
      {r.link && (
        <p>
          <a href={r.link} target="_blank" rel="noopener noreferrer" className="font-semibold break-all text-brand-700 underline">
            Open your gift card
          </a>
        </p>
      )}
      {r.barcode_format === "QRCODE" && r.barcode_value && (
        <div className="flex flex-col gap-3 sm:flex-row">
          <EsimQr value={r.barcode_value} />
          <ol className="list-decimal pl-5 text-sm text-slate-800">
            <li>On your phone, open Settings, then Mobile data (or Cellular), then Add eSIM.</li>
            <li>Scan this QR code, or enter the activation code below by hand.</li>
            <li>Turn the eSIM on for data when you arrive.</li>
          </ol>
        </div>
      )}
      {r.barcode_value && <CopyField label="Activation code" value={r.barcode_value} />}
      {r.iccid && <CopyField label="ICCID" value={r.iccid} />}
      {r.other && <p className="text-sm text-slate-800">{r.other}</p>}
      {r.expiration_date && <p className="text-sm text-slate-700">Expires {r.expiration_date}</p>}
      {r.instructions && <p className="text-sm whitespace-pre-line text-slate-700">{r.instructions}</p>}
    </article>
  );
}
