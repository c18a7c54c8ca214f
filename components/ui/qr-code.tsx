"use client";

import QRCode from "qrcode";
import { useEffect, useState } from "react";

/** A QR code of `value` (an eSIM's activation, a payment URI), drawn in the browser. */
export function QrCode({ value, label, size = 220 }: { value: string; label: string; size?: number }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(value, { margin: 1, width: size, errorCorrectionLevel: "M" }).then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [value, size]);
  return src ? (
    // A data URL made here: next/image has nothing to optimize.
    // eslint-disable-next-line @next/next/no-img-element
    <img src={src} width={size} height={size} alt={label} className="rounded-lg bg-white p-1 ring-1 ring-slate-200" />
  ) : (
    <div style={{ width: size, height: size }} className="animate-pulse rounded-lg bg-slate-100" aria-hidden="true" />
  );
}
