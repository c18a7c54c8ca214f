/**
 * A radio drawn as a tile: the label is the tile, the input sits inside it. Checked and keyboard-focused states come
 * from the input (`has-[:checked]`, `has-[:focus-visible]`), so every picker looks and focuses the same; each picker
 * adds its own layout and padding.
 */
export const radioTileClass =
  "cursor-pointer rounded-xl border border-slate-300 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600";
