import type { MouseEvent, ReactNode } from "react";
import { Link } from "react-router";
import { scrollToAnchor } from "#app/lib/scroll.ts";

/**
 * A link to a section of the home page (`/#id`). When the current page has that section it scrolls
 * there with the 80 px offset instead of navigating; without JavaScript it is a plain link.
 */
export function AnchorLink({
  id,
  className,
  onNavigate,
  children,
}: {
  id: string;
  className?: string;
  onNavigate?: () => void;
  children: ReactNode;
}) {
  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    onNavigate?.();
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    if (scrollToAnchor(id)) event.preventDefault();
  }
  return (
    <Link to={`/#${id}`} onClick={handleClick} className={className}>
      {children}
    </Link>
  );
}
