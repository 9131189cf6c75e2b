import { ConsolidatedContractScreen } from "./consolidated-contract.tsx";
import { AnswerCard, QUESTION } from "./conversational-answer.tsx";
import { ProductFigure } from "./product-frame.tsx";

/**
 * The home hero's picture of the product: the consolidated contract, then a question about it and
 * the answer citing its clause. Once there is room the answer overlaps the window's bottom strip
 * (left of the sources it names) and the question sits to its right; narrow, they stack below. Only
 * in the split hero (lg) does the answer reach out into the gap left of the window.
 * NOTE: no box here is sized or placed by what follows it in the markup (the question's width is
 * set, not flexed against the answer's): a browser may paint a half-parsed page, and nothing
 * already painted should move when the rest arrives.
 */
export function HeroProductVisual({ className }: { className?: string }) {
  return (
    <ProductFigure
      tone="dark"
      className={className}
      caption={`A sub-contract with its amendments merged and each change traced, and the answer to “${QUESTION}” citing its clause.`}
    >
      <ConsolidatedContractScreen trace="strip" />
      <div className="flex flex-col gap-3 @xl:flex-row-reverse @xl:items-start @xl:gap-4">
        <p className="mt-3 ml-8 rounded-2xl rounded-br-md bg-brand-soft px-3.5 py-2 text-sm leading-6 text-ink shadow-lg @xl:mt-4 @xl:ml-0 @xl:w-[calc(100%-22rem)] @xl:shrink-0">
          <span className="sr-only">Question: </span>
          {QUESTION}
        </p>
        <AnswerCard compact className="relative @xl:-mt-12 @xl:w-[21rem] @xl:shrink-0 lg:@xl:-left-6" />
      </div>
    </ProductFigure>
  );
}
