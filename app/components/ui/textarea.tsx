import type { ComponentProps } from "react";
import { cn } from "#app/lib/cn.ts";
import { textControlClass } from "./input.tsx";

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cn(textControlClass, "min-h-11 py-2 leading-6", className)} {...props} />;
}
