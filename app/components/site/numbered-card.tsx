import type { ReactNode } from "react";

/** A list item card with a two-digit number, a title and text: problem points, principles. */
export function NumberedCard({
  index,
  title,
  children,
}: {
  index: number;
  title: string;
  children: ReactNode;
}) {
  return (
    <li className="rounded-xl border border-line bg-white p-8 shadow-sm">
      <p className="text-sm font-semibold text-brand" aria-hidden="true">
        {String(index + 1).padStart(2, "0")}
      </p>
      <h3 className="mt-2 text-xl font-semibold text-brand">{title}</h3>
      <p className="mt-3 leading-7 text-ink-muted">{children}</p>
    </li>
  );
}
