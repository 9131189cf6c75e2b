import { AppWindow, Chip, ProductFigure, ScreenHeader } from "./product-frame.tsx";
import { sample } from "./sample-project.ts";

// A clause in its original wording beside the plain-language version the team reads.

const FACTS = [
  ["What", `${sample.ldRate} for each week of delay`],
  ["From", `${sample.completionNow}, the completion date`],
  ["Cap", `${sample.ldCap} (5% of ${sample.sum})`],
  ["Action", "Notice at least 5 days before final payment"],
] as const;

export function PlainLanguageScreen({ className }: { className?: string }) {
  return (
    <AppWindow title={`${sample.projectShort} · Contracts`} active="contracts" className={className}>
      <ScreenHeader
        title="Clause 2.22 · Liquidated damages"
        detail={`${sample.contract} — ${sample.subcontractor}`}
      >
        <Chip tone="green">Checked by P. Nair, QS</Chip>
      </ScreenHeader>
      <div className="grid grid-cols-1 @xl:grid-cols-2">
        <div className="px-4 py-3.5">
          <p className="text-xs font-semibold tracking-wide text-ink-muted uppercase">Original wording</p>
          <p className="mt-2 font-serif text-sm leading-6 text-slate-700">
            <span className="font-mono text-xs font-semibold text-ink-muted">2.22.1 </span>
            If the Sub-Contractor fails to complete the Sub-Contract Works by the Completion Date, the
            Contractor may, not later than 5 days before the final date for payment of the final payment,
            require by notice that the Sub-Contractor pay liquidated damages at the rate stated in the
            Sub-Contract Particulars for the period between the Completion Date and practical completion.
          </p>
          <p className="mt-2 font-serif text-sm leading-6 text-slate-700">
            <span className="font-mono text-xs font-semibold text-ink-muted">2.22.3 </span>
            Such liability shall not exceed 5% of the Sub-Contract Sum.
          </p>
        </div>
        <div className="border-t border-line bg-brand-soft/60 px-4 py-3.5 @xl:border-t-0 @xl:border-l">
          <p className="text-xs font-semibold tracking-wide text-brand uppercase">In plain English</p>
          <p className="mt-2 text-sm leading-6 font-medium text-ink">
            If {sample.subcontractorShort} finishes late, we can claim {sample.ldRate} for every week of
            delay, up to {sample.ldCap} in total.
          </p>
          <dl className="mt-3 grid gap-1.5 text-xs">
            {FACTS.map(([term, value]) => (
              <div
                key={term}
                className="grid grid-cols-[3.5rem_minmax(0,1fr)] gap-2 rounded-md bg-white px-2.5 py-1.5"
              >
                <dt className="font-semibold text-ink-muted">{term}</dt>
                <dd className="text-ink">{value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </div>
    </AppWindow>
  );
}

export function PlainLanguageVisual({ className }: { className?: string }) {
  return (
    <ProductFigure
      className={className}
      caption="Clause 2.22 on liquidated damages in its original wording, beside the plain-English version: the rate, the start date, the cap and the notice to give."
    >
      <PlainLanguageScreen />
    </ProductFigure>
  );
}
