import { AppWindow, Chip, type ChipTone, Icon, ProductFigure, ScreenHeader } from "./product-frame.tsx";
import { sample } from "./sample-project.ts";

// Who sees what on the sample project: each person's role, the contracts in their reach and whether
// the commercially sensitive terms are shown to them.

const PEOPLE: {
  name: string;
  initials: string;
  role: string;
  reach: string;
  terms: string;
  tone: ChipTone;
}[] = [
  {
    name: "Helen Marsh",
    initials: "HM",
    role: "Director",
    reach: "All projects",
    terms: "Full",
    tone: "green",
  },
  {
    name: "Priya Nair",
    initials: "PN",
    role: "Quantity surveyor",
    reach: "Riverside, Canal Street",
    terms: "Full",
    tone: "green",
  },
  {
    name: "Dan Whitfield",
    initials: "DW",
    role: "Buyer",
    reach: "Supply chain agreements",
    terms: "Summary",
    tone: "amber",
  },
  {
    name: "Sam Okoro",
    initials: "SO",
    role: "Site manager",
    reach: "Riverside Quarter",
    terms: "Hidden",
    tone: "grey",
  },
];

export function RoleAccessScreen({ className }: { className?: string }) {
  return (
    <AppWindow title={`${sample.projectShort} · Access`} active="access" className={className}>
      <ScreenHeader
        title="Access · Riverside Quarter"
        detail="Commercial terms: rates, retention, damages and caps"
      >
        <Chip tone="blue">4 roles</Chip>
      </ScreenHeader>
      <table className="w-full table-fixed text-left text-sm">
        <thead className="bg-surface-muted text-xs text-ink-muted">
          <tr>
            <th scope="col" className="px-4 py-2 font-semibold">
              Person
            </th>
            <th scope="col" className="hidden w-[38%] px-2 py-2 font-semibold @xl:table-cell">
              Can see
            </th>
            <th scope="col" className="w-36 px-4 py-2 text-right font-semibold @xl:w-40">
              Commercial terms
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {PEOPLE.map((person) => (
            <tr key={person.name}>
              <td className="px-4 py-2.5">
                <span className="flex min-w-0 items-center gap-2.5">
                  <span
                    aria-hidden="true"
                    className="grid size-7 shrink-0 place-items-center rounded-full bg-brand-soft text-xs font-semibold text-brand"
                  >
                    {person.initials}
                  </span>
                  <span className="min-w-0">
                    <span className="block truncate font-medium text-ink">{person.name}</span>
                    <span className="block truncate text-xs text-ink-muted">{person.role}</span>
                  </span>
                </span>
              </td>
              <td className="hidden truncate px-2 py-2.5 text-xs text-ink-muted @xl:table-cell">
                {person.reach}
              </td>
              <td className="px-4 py-2.5 text-right">
                <Chip tone={person.tone}>
                  {person.terms === "Hidden" ? <Icon name="lock" className="size-3" /> : null}
                  {person.terms}
                </Chip>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="flex items-center gap-2 border-t border-line bg-surface-muted px-4 py-2.5 text-xs text-ink-muted">
        <Icon name="lock" className="size-3.5 text-brand" />
        Clause 2.22 damages and clause 4.9 retention: shown to 2 named people
      </p>
    </AppWindow>
  );
}

export function RoleAccessVisual({ className }: { className?: string }) {
  return (
    <ProductFigure
      className={className}
      caption="Access on a project by role: the director and the quantity surveyor see the commercial terms, the buyer a summary, the site manager the obligations without them."
    >
      <RoleAccessScreen />
    </ProductFigure>
  );
}
