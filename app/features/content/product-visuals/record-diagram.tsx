import { cn } from "#app/lib/cn.ts";
import { Icon } from "./product-frame.tsx";
import { amendments, sample } from "./sample-project.ts";

// The approach in one picture, for the navy band at the top of the solution page: the documents a
// contract is spread across go in, one current record comes out, and everything else works from it.

const DOCUMENTS = [
  "Signed sub-contract",
  amendments.schedule.title,
  amendments.variation.title,
  amendments.sideLetter.title,
];

const USES = ["Dates", "Plain English", "Answers", "Insights"];

const SUMMARY = `Diagram: the signed sub-contract, its schedule of amendments, a variation letter and a side letter go in; one current version of the contract comes out, and the dates, plain-English summaries, answers and insights all work from it.`;

export function RecordDiagram({ className }: { className?: string }) {
  return (
    <div role="img" aria-label={SUMMARY} className={cn("@container", className)}>
      <div className="grid items-center gap-3 @xl:grid-cols-[minmax(0,1fr)_3rem_minmax(0,1fr)] @xl:gap-2">
        <ul className="grid grid-cols-1 gap-2 @sm:grid-cols-2 @xl:grid-cols-1">
          {DOCUMENTS.map((document, index) => (
            <li
              key={document}
              className={cn(
                "flex items-center gap-2 rounded-lg bg-white/10 px-3 py-2 text-xs font-medium text-white ring-1 ring-white/20",
                index % 2 === 1 && "@xl:ml-4",
              )}
            >
              <Icon name="file" className="size-4 text-accent" />
              <span className="min-w-0 truncate">{document}</span>
            </li>
          ))}
        </ul>
        <div aria-hidden="true" className="flex items-center justify-center">
          <span className="grid size-10 place-items-center rounded-full bg-accent text-ink shadow-lg ring-4 ring-white/15">
            <Icon name="send" className="size-5 rotate-90 @xl:rotate-0" />
          </span>
        </div>
        <div className="rounded-xl bg-white p-4 text-ink shadow-2xl shadow-black/30">
          <p className="flex items-center justify-between gap-2 text-xs font-semibold text-ink-muted">
            One current version
            <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-emerald-800 ring-1 ring-emerald-600/20 ring-inset">
              3 changes merged
            </span>
          </p>
          <p className="mt-2 text-sm font-semibold">{sample.contract}</p>
          <p className="text-xs text-ink-muted">{sample.subcontractor}</p>
          <ul className="mt-3 flex flex-wrap gap-1.5">
            {USES.map((use) => (
              <li key={use} className="rounded-md bg-brand-soft px-2 py-1 text-xs font-semibold text-brand">
                {use}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}
