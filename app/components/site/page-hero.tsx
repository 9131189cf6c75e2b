import type { ReactNode } from "react";
import { cn } from "#app/lib/cn.ts";
import { Breadcrumb, type Crumb } from "./breadcrumb.tsx";

/**
 * The band at the top of a content page: breadcrumb, heading and intro. Navy by default; "light"
 * gives a page a different opening (the features page opens on its list of capabilities). `aside`
 * sits beside the text on wide screens and below it on narrow ones.
 */
export function PageHero({
  title,
  intro,
  breadcrumb,
  eyebrow,
  tone = "brand",
  aside,
  children,
}: {
  title: string;
  intro?: ReactNode;
  breadcrumb?: Crumb[];
  eyebrow?: string;
  tone?: "brand" | "light";
  aside?: ReactNode;
  children?: ReactNode;
}) {
  const light = tone === "light";
  return (
    <section
      className={
        light
          ? "border-b border-line bg-surface-muted bg-[radial-gradient(#d9e0ea_1px,transparent_1px)] bg-size-[22px_22px] text-ink"
          : "bg-brand text-white"
      }
    >
      <div
        className={cn(
          "mx-auto max-w-7xl px-4 py-14 sm:px-6 md:py-20",
          aside && "grid gap-12 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)] lg:items-center",
        )}
      >
        <div>
          {breadcrumb ? <Breadcrumb items={breadcrumb} inverse={!light} /> : null}
          {eyebrow ? (
            <p
              className={cn(
                "mt-6 text-sm font-semibold tracking-wider uppercase",
                light ? "text-accent-ink" : "text-accent",
              )}
            >
              {eyebrow}
            </p>
          ) : null}
          <h1
            className={cn(
              "mt-3 max-w-4xl text-4xl font-bold tracking-tight text-balance md:text-5xl",
              light && "text-brand",
            )}
          >
            {title}
          </h1>
          {intro ? (
            <div
              className={cn("mt-6 max-w-3xl text-lg leading-8", light ? "text-ink-muted" : "text-slate-100")}
            >
              {intro}
            </div>
          ) : null}
          {children}
        </div>
        {aside}
      </div>
    </section>
  );
}
