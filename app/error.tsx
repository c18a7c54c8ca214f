"use client";

/**
 * A page whose render failed. Most often the database was briefly unreachable (a restart, a failover): the next
 * requests are answered 503 by the proxy until it is back (lib/platform/http/outage-page.ts), and a retry in a few seconds
 * renders the page.
 */
export default function PageError() {
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-2xl font-bold text-slate-900">The shop is briefly unavailable</h1>
      <p className="text-slate-700">This page could not be shown just now. Try again in a few seconds; nothing you paid for is lost.</p>
      {/* A reload, not the boundary's reset: the page's server render is what failed. */}
      <button type="button" onClick={() => window.location.reload()} className="font-semibold text-brand-700 hover:underline">
        Try again
      </button>
    </main>
  );
}
