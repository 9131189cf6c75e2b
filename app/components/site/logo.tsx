import { site } from "#app/lib/site/site.ts";

/**
 * The product mark: a folded document with a bridge arch, and the product name. A plain link: from
 * the back office too, the home page is a document of its own, never rendered by the router (ADR 013).
 */
export function Logo({ inverse = false }: { inverse?: boolean }) {
  return (
    <a
      href="/"
      className={`flex items-center gap-2 text-lg font-bold tracking-tight ${inverse ? "text-white" : "text-brand"}`}
    >
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 shrink-0">
        <rect width="32" height="32" rx="7" fill={inverse ? "#ffffff" : "#12355b"} />
        <path d="M9 7h10l5 5v13H9z" fill={inverse ? "#12355b" : "#ffffff"} />
        <path d="M19 7v5h5" fill="none" stroke="#f2a900" strokeWidth="1.6" />
        <path
          d="M11.5 23v-3.2a4.5 4.5 0 0 1 9 0V23"
          fill="none"
          stroke="#f2a900"
          strokeWidth="2"
          strokeLinecap="round"
        />
      </svg>
      <span>{site.productName}</span>
    </a>
  );
}
