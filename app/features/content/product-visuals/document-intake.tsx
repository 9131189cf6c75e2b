import { AppWindow, Chip, type ChipTone, Icon, ProductFigure, ScreenHeader } from "./product-frame.tsx";
import { amendments, sample } from "./sample-project.ts";

// Documents arriving as they are, signed PDFs and a phone scan, each read and linked to the clauses
// it changes.

const FILES: { name: string; detail: string; status: string; tone: ChipTone; progress?: string }[] = [
  {
    name: "Hartwell-DBSub-2016-signed.pdf",
    detail: `64 pages · signed ${sample.signed}`,
    status: "Read",
    tone: "green",
  },
  {
    name: "Schedule-of-Amendments.pdf",
    detail: "23 items · linked to 19 clauses",
    status: "Linked",
    tone: "green",
  },
  {
    name: "V-07-variation-letter.pdf",
    detail: `${amendments.variation.date} · changes cl. 2.3`,
    status: "Linked",
    tone: "green",
  },
  {
    name: "side-letter-scan.jpg",
    detail: "Phone photo · reading the scan",
    status: "Reading",
    tone: "sky",
    progress: "w-2/3",
  },
];

export function DocumentIntakeScreen({ className }: { className?: string }) {
  return (
    <AppWindow title={`${sample.projectShort} · Documents`} active="documents" className={className}>
      <ScreenHeader
        title="Documents · Groundworks sub-contract"
        detail={`${sample.project} · ${sample.subcontractor}`}
      >
        <Chip tone="grey">4 files</Chip>
      </ScreenHeader>
      <div className="px-4 py-3">
        <p
          aria-hidden="true"
          className="flex items-center justify-center gap-2 rounded-lg border-2 border-dashed border-slate-300 bg-surface-muted px-3 py-3 text-xs text-ink-muted"
        >
          <Icon name="documents" className="size-4 text-brand" />
          Drop PDFs, scans or photos here
        </p>
        <ul className="mt-3 divide-y divide-line">
          {FILES.map((file) => (
            <li key={file.name} className="flex items-center gap-3 py-2">
              <span
                aria-hidden="true"
                className="grid size-8 shrink-0 place-items-center rounded-md bg-brand-soft text-brand"
              >
                <Icon name="file" className="size-4" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium text-ink">{file.name}</span>
                <span className="block truncate text-xs text-ink-muted">{file.detail}</span>
                {file.progress ? (
                  <span aria-hidden="true" className="mt-1 block h-1.5 rounded-full bg-slate-200">
                    <span className={`block h-full rounded-full bg-sky-600 ${file.progress}`} />
                  </span>
                ) : null}
              </span>
              <Chip tone={file.tone}>
                {file.tone === "green" ? <Icon name="check" className="size-3" /> : null}
                {file.status}
              </Chip>
            </li>
          ))}
        </ul>
      </div>
    </AppWindow>
  );
}

export function DocumentIntakeVisual({ className }: { className?: string }) {
  return (
    <ProductFigure
      className={className}
      caption="Signed documents uploaded as they are, including a photographed side letter; each is read and linked to the clauses it changes."
    >
      <DocumentIntakeScreen />
    </ProductFigure>
  );
}
