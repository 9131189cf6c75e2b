import { cn } from "#app/lib/cn.ts";
import { AppWindow, Chip, Icon, ProductFigure, ScreenHeader } from "./product-frame.tsx";
import { sample } from "./sample-project.ts";

// A question asked in plain words and the answer, which cites the clause it relies on and quotes it.

export const QUESTION = `What is the cap on liquidated damages on the ${sample.projectShort} subcontract?`;

/** The answer bubble with its citation chips; also floats over the contract in the home hero. */
export function AnswerCard({ className, compact = false }: { className?: string; compact?: boolean }) {
  return (
    <div className={cn("rounded-xl border border-line bg-white p-3.5 shadow-lg shadow-brand/10", className)}>
      <p className="flex items-center gap-1.5 text-xs font-semibold text-brand">
        <span aria-hidden="true" className="grid size-5 place-items-center rounded-full bg-brand text-white">
          <Icon name="spark" className="size-3" />
        </span>
        Clausebridge answer
      </p>
      <p className="mt-2 text-sm leading-6 text-ink">
        Liquidated damages are capped at <strong className="font-semibold">{sample.ldCap}</strong>, 5% of the
        sub-contract sum of {sample.sum}. They run at {sample.ldRate} a week after the completion date of{" "}
        {sample.completionNow}.
      </p>
      <p className="mt-2.5 flex flex-wrap items-center gap-1.5 text-xs text-ink-muted">
        <span>Sources:</span>
        <Chip tone="blue">cl. 2.22.3</Chip>
        <Chip tone="sky">Amendment A1, item 9</Chip>
        {compact ? null : <Chip tone="grey">Sub-Contract Particulars</Chip>}
      </p>
    </div>
  );
}

export function ConversationalAnswerScreen({ className }: { className?: string }) {
  return (
    <AppWindow title={`${sample.projectShort} · Ask`} active="ask" className={className}>
      <ScreenHeader
        title="Ask about your contracts"
        detail={`Searching 14 contracts · ${sample.projectShort}`}
      >
        <Chip tone="green">Answers cite their clause</Chip>
      </ScreenHeader>
      <div className="space-y-4 bg-surface-muted px-4 py-4">
        <div className="flex justify-end">
          <p className="max-w-[85%] rounded-2xl rounded-br-md bg-brand px-3.5 py-2 text-sm leading-6 text-white">
            <span className="sr-only">Question: </span>
            {QUESTION}
          </p>
        </div>
        <div className="max-w-[95%] space-y-2">
          <AnswerCard />
          <div className="rounded-lg border border-dashed border-slate-300 bg-white px-3 py-2">
            <p className="font-mono text-xs font-semibold text-ink-muted">cl. 2.22.3 as amended</p>
            <p className="mt-1 font-serif text-sm leading-6 text-slate-700">
              “The Sub-Contractor’s total liability for liquidated damages shall not exceed 5% of the
              Sub-Contract Sum.”
            </p>
          </div>
        </div>
      </div>
      <div aria-hidden="true" className="flex items-center gap-2 border-t border-line px-4 py-3">
        <span className="min-w-0 flex-1 truncate rounded-lg border border-line px-3 py-1.5 text-xs text-ink-muted">
          Ask about any contract, clause or date
        </span>
        <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-brand text-white">
          <Icon name="send" className="size-4" />
        </span>
      </div>
    </AppWindow>
  );
}

export function ConversationalAnswerVisual({ className }: { className?: string }) {
  return (
    <ProductFigure
      className={className}
      caption="A question about liquidated damages answered in conversation, with the clause and amendment it relies on cited and quoted."
    >
      <ConversationalAnswerScreen />
    </ProductFigure>
  );
}
