/** The shop's gift card code as people type it: 20 letters and digits, any case, dashes and spaces as they like. */
export function GiftCardCodeInput({
  value,
  onValue,
  invalid,
  ...input
}: {
  value: string;
  onValue: (value: string) => void;
  invalid: boolean;
} & Pick<React.ComponentProps<"input">, "id" | "name" | "ref" | "required" | "aria-describedby">) {
  return (
    <input
      type="text"
      value={value}
      onChange={(e) => onValue(e.target.value)}
      maxLength={64}
      placeholder="XXXX-XXXX-XXXX-XXXX-XXXX"
      autoComplete="off"
      autoCapitalize="characters"
      autoCorrect="off"
      spellCheck={false}
      enterKeyHint="go"
      aria-invalid={invalid}
      className="h-11 w-full rounded-xl border border-slate-300 bg-white px-3 font-mono text-slate-900 uppercase placeholder:font-sans placeholder:text-slate-400 placeholder:normal-case aria-[invalid=true]:border-red-600 sm:max-w-sm"
      {...input}
    />
  );
}
