import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";

/** The shop's header, main area and footer: around every shop page, and around the page of an unknown address. */
export function ShopFrame({ children }: { children: React.ReactNode }) {
  return (
    // The footer stays at the bottom of the window on short pages.
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
