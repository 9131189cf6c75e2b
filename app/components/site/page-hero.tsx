import type { ReactNode } from "react";
import { Breadcrumb, type Crumb } from "./breadcrumb.tsx";

/** The dark band at the top of every content page: breadcrumb, heading and intro. */
export function PageHero({
  title,
  intro,
  breadcrumb,
  eyebrow,
  children,
}: {
  title: string;
  intro?: ReactNode;
  breadcrumb?: Crumb[];
  eyebrow?: string;
  children?: ReactNode;
}) {
  return (
    <section className="bg-brand text-white">
      <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 md:py-20">
        {breadcrumb ? <Breadcrumb items={breadcrumb} /> : null}
        {eyebrow ? (
          <p className="mt-6 text-sm font-semibold tracking-wider text-accent uppercase">{eyebrow}</p>
        ) : null}
        <h1 className="mt-3 max-w-4xl text-4xl font-bold tracking-tight text-balance md:text-5xl">{title}</h1>
        {intro ? <div className="mt-6 max-w-3xl text-lg leading-8 text-slate-100">{intro}</div> : null}
        {children}
      </div>
    </section>
  );
}
