import { SLUG_PATTERN } from "../content-rules.ts";
import { POST_LIMITS } from "./post-fields.ts";

// The address a post gets from its title when none is given (issue 24): lower-case ASCII words
// joined by hyphens, as blog files are named. Shared with the editor, which suggests it as you type.

/** Suggested addresses stop at a word boundary below this, so a long title gives a readable address. */
const SUGGESTED_MAX = 80;

/** "Hidden Costs: NEC4 & JCT — Explained!" → "hidden-costs-nec4-and-jct-explained"; "" → "post". */
export function suggestSlug(title: string): string {
  const words = title
    .normalize("NFKD")
    // Accents go (é → e); letters outside ASCII that do not decompose are dropped.
    .replace(/\p{M}+/gu, "")
    .replace(/ß/g, "ss")
    .replace(/&/g, " and ")
    .toLowerCase()
    // "don't" → "dont", not "don-t".
    .replace(/['’]/g, "")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > SUGGESTED_MAX) break;
    slug = next;
  }
  // A single word longer than the limit: cut it.
  if (!slug && words[0]) slug = words[0].slice(0, SUGGESTED_MAX);
  return slug || "post";
}

/** `base`, then `base-2`, `base-3`…: the candidates for a free address, within the slug limit. */
export function slugCandidate(base: string, attempt: number): string {
  if (attempt <= 1) return base;
  const suffix = `-${attempt}`;
  return `${base.slice(0, POST_LIMITS.slug - suffix.length).replace(/-+$/, "")}${suffix}`;
}

/** Whether `slug` is the title's suggestion, or one of its free variants (`-2`, `-3`…). */
export function isSuggestedSlug(slug: string, title: string): boolean {
  const base = suggestSlug(title);
  if (slug === base) return true;
  const attempt = /-([1-9]\d{0,5})$/.exec(slug)?.[1];
  return attempt !== undefined && Number(attempt) >= 2 && slugCandidate(base, Number(attempt)) === slug;
}

export function isValidSlug(value: string): boolean {
  return value.length <= POST_LIMITS.slug && SLUG_PATTERN.test(value);
}
