import type { ReactNode } from "react";

/**
 * A link to a section of the home page (`/#id`). On the home page the browser scrolls there itself,
 * smoothly and 80 px below the top (app.css); on another page that has the same section
 * anchor-link.enhance.ts scrolls to it there; anywhere else it opens the home page at that section.
 */
export function AnchorLink({
  id,
  className,
  children,
}: {
  id: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <a href={`/#${id}`} className={className}>
      {children}
    </a>
  );
}
