/** The outcome of the last action: a notice read politely, or an error read at once. Empty, they take no room. */
export function ActionMessages({ notice, error }: { notice: string | null | undefined; error: string | null | undefined }) {
  return (
    <>
      <p role="status" className="text-sm font-medium text-emerald-800 empty:sr-only">
        {notice}
      </p>
      <p role="alert" className="text-sm font-medium text-red-700 empty:sr-only">
        {error}
      </p>
    </>
  );
}
