import type { ReactNode } from "react";
import { cn } from "#app/lib/cn.ts";

/** A back-office message above the page's content: an outcome, a refusal, or a question. */
export function Banner({
  tone,
  children,
  className,
  id,
}: {
  tone: "success" | "error" | "info";
  children: ReactNode;
  className?: string;
  id?: string;
}) {
  return (
    <div
      id={id}
      role={tone === "error" ? "alert" : "status"}
      className={cn(
        "rounded-lg border px-4 py-3 leading-6",
        tone === "success" && "border-success bg-green-50 text-success",
        tone === "error" && "border-danger bg-red-50 text-danger",
        tone === "info" && "border-line bg-white text-ink",
        className,
      )}
    >
      {children}
    </div>
  );
}
