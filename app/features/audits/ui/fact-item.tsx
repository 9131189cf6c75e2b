import type { ReactNode } from "react";

/** One measured fact of an audit card (performance, TLS): a label over its value, in a bordered tile. */
export function FactItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 rounded-lg border border-line p-3">
      <dt className="text-sm font-semibold text-ink-muted">{label}</dt>
      <dd className="mt-1 font-semibold break-words">{children}</dd>
    </div>
  );
}
