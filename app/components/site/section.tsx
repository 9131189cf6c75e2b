import type { ReactNode } from "react";
import { cn } from "#app/lib/cn.ts";

/** A page section with a heading wired to its landmark label. */
export function Section({
  id,
  title,
  intro,
  children,
  muted = false,
  className,
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  muted?: boolean;
  className?: string;
}) {
  const headingId = `${id}-heading`;
  return (
    <section id={id} aria-labelledby={headingId} className={cn(muted && "bg-surface-muted", className)}>
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 md:py-20">
        <h2 id={headingId} className="text-3xl font-bold tracking-tight text-balance md:text-4xl">
          {title}
        </h2>
        {intro ? <div className="mt-4 max-w-3xl text-lg leading-8 text-ink-muted">{intro}</div> : null}
        <div className="mt-10">{children}</div>
      </div>
    </section>
  );
}
