import { type ClassValue, clsx } from "clsx";

/**
 * Joins class names. NOTE: no tailwind-merge (9 KB of gzipped JavaScript on every page, see
 * docs/decisions/001-stack.md): callers add classes that do not conflict with a component's own,
 * e.g. wrap a component to hide it rather than passing `hidden` to an `inline-flex` element.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
