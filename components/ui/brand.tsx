/** The first stop of the keyboard on every page: jumps past the header to `#main`. */
export function SkipToContent() {
  return (
    <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-30 focus:rounded focus:bg-white focus:p-2">
      Skip to content
    </a>
  );
}

/** The shop's mark: the square before its name in the shop's and the dashboard's headers. */
export function BrandMark() {
  return (
    <span aria-hidden className="grid h-8 w-8 place-items-center rounded-lg bg-brand-600 text-sm font-black text-white">
      x4
    </span>
  );
}
