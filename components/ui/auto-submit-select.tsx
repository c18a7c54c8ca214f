"use client";

import type { ComponentProps } from "react";

/** A select inside a GET form that submits the form when it changes (the form's button still works without JS). */
export function AutoSubmitSelect(props: ComponentProps<"select">) {
  return <select {...props} onChange={(e) => e.currentTarget.form?.requestSubmit()} />;
}
