import { Link } from "react-router";
import { Dialog, DialogContent, DialogTrigger } from "#app/components/ui/dialog.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#app/components/ui/tabs.tsx";
import { ScoreBadge, SeverityBadge } from "./audit-badges.tsx";
import { recommendations, scoringText, sortIssues } from "./audit-format.ts";
import { AUDIT_TEXT } from "./audit-texts.ts";
import type { AuditRow } from "./audit-view.ts";

// One audit's details (SPEC section 2): a Summary (grade, score, up to 3 critical or high
// recommendations) and its Issues. With JavaScript a dialog with two tabs; without, a section of the
// page (`?details=<id>`) that shows both parts one after the other.

type HeadingLevel = 3 | 4;

function Heading({
  level,
  className,
  children,
}: {
  level: HeadingLevel;
  className?: string;
  children: string;
}) {
  const Tag = level === 3 ? "h3" : "h4";
  return <Tag className={className}>{children}</Tag>;
}

/** Text with `backtick` spans (header names, values) shown as code; React escapes everything. */
function Prose({ text }: { text: string }) {
  const parts = text.split(/`([^`]+)`/);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string
          <code key={index} className="rounded bg-surface-muted px-1 py-0.5 font-mono text-[0.9em]">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

export const issuesTabLabel = (audit: Pick<AuditRow, "issues">) => `Issues (${audit.issues.length})`;

export function AuditSummary({ audit, headingLevel = 3 }: { audit: AuditRow; headingLevel?: HeadingLevel }) {
  const recommended = recommendations(audit.issues);
  return (
    <div className="grid gap-6">
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
        <div className="rounded-lg border border-line p-4">
          <dt className="text-sm font-semibold text-ink-muted">Grade</dt>
          <dd className="mt-1 text-3xl font-bold" data-testid="audit-grade">
            {audit.grade}
          </dd>
        </div>
        <div className="rounded-lg border border-line p-4">
          <dt className="text-sm font-semibold text-ink-muted">Score</dt>
          <dd className="mt-1 flex flex-wrap items-baseline gap-2">
            <ScoreBadge score={audit.score} className="text-lg" />
            <span className="text-sm text-ink-muted">out of 100</span>
          </dd>
        </div>
        {audit.uncappedScore > 100 ? (
          <div className="rounded-lg border border-line p-4">
            <dt className="text-sm font-semibold text-ink-muted">Uncapped score</dt>
            <dd className="mt-1">
              <span className="text-lg font-bold tabular-nums">{audit.uncappedScore}</span>{" "}
              <span className="text-sm text-ink-muted">with extra credit</span>
            </dd>
          </div>
        ) : null}
        <div className="rounded-lg border border-line p-4">
          <dt className="text-sm font-semibold text-ink-muted">Issues</dt>
          <dd className="mt-1 text-lg font-bold tabular-nums">{audit.issues.length}</dd>
        </div>
        <div className="rounded-lg border border-line p-4">
          <dt className="text-sm font-semibold text-ink-muted">Scoring</dt>
          <dd className="mt-1" data-testid="audit-algorithm">
            {scoringText(audit.algorithmVersion)}
          </dd>
        </div>
      </dl>
      <div>
        <Heading level={headingLevel} className="text-base font-semibold">
          Recommendations
        </Heading>
        {recommended.length === 0 ? (
          <p className="mt-2 text-ink-muted">{AUDIT_TEXT.noCriticalIssues}</p>
        ) : (
          <ol className="mt-2 grid gap-3">
            {recommended.map((issue) => (
              <li key={issue.id} className="rounded-lg border border-line p-4">
                <div className="flex flex-wrap items-center gap-2">
                  <SeverityBadge severity={issue.severity} />
                  <span className="font-semibold">{issue.title}</span>
                </div>
                <p className="mt-2 leading-6 break-words">
                  <Prose text={issue.remediation || issue.description} />
                </p>
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}

export function AuditIssues({
  audit,
  headingLevel = 3,
}: {
  /** Any list of issues: a stored audit's, or a TLS check's findings. */
  audit: Pick<AuditRow, "issues">;
  headingLevel?: HeadingLevel;
}) {
  if (audit.issues.length === 0) return <p className="text-ink-muted">{AUDIT_TEXT.noIssues}</p>;
  return (
    <ul className="grid gap-3">
      {sortIssues(audit.issues).map((issue) => (
        <li key={issue.id} className="min-w-0 rounded-lg border border-line p-4" data-issue={issue.id}>
          <div className="flex flex-wrap items-center gap-2">
            <SeverityBadge severity={issue.severity} />
            <Heading level={headingLevel} className="font-semibold break-words">
              {issue.title}
            </Heading>
          </div>
          <p className="mt-1 text-sm text-ink-muted">Category: {issue.category}</p>
          <p className="mt-2 leading-6 break-words">
            <Prose text={issue.description} />
          </p>
          {issue.remediation ? (
            <p className="mt-2 leading-6 break-words">
              <span className="font-semibold">Remediation:</span> <Prose text={issue.remediation} />
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

const detailsDescription = (audit: AuditRow) => `${audit.url} — audited ${audit.date}`;

/** 'View Details' and its dialog (with JavaScript). */
export function AuditDetailsDialog({ audit }: { audit: AuditRow }) {
  return (
    <Dialog>
      <DialogTrigger className="inline-flex h-9 items-center justify-center rounded-md border border-brand bg-white px-3 text-sm font-semibold whitespace-nowrap text-brand hover:bg-brand-soft focus-visible:outline-3 focus-visible:outline-offset-2">
        {AUDIT_TEXT.viewDetails}
        <span className="sr-only"> of the audit of {detailsDescription(audit)}</span>
      </DialogTrigger>
      <DialogContent title="Security audit details" description={detailsDescription(audit)}>
        <Tabs defaultValue="summary">
          <TabsList aria-label="Audit details">
            <TabsTrigger value="summary">Summary</TabsTrigger>
            <TabsTrigger value="issues">{issuesTabLabel(audit)}</TabsTrigger>
          </TabsList>
          <TabsContent value="summary">
            <AuditSummary audit={audit} />
          </TabsContent>
          <TabsContent value="issues">
            <AuditIssues audit={audit} />
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}

/** 'View Details' without JavaScript: a link to the page with the details shown in it. */
export function AuditDetailsLink({ audit, href }: { audit: AuditRow; href: string }) {
  return (
    <Link
      to={href}
      className="inline-flex h-9 items-center justify-center rounded-md border border-brand bg-white px-3 text-sm font-semibold whitespace-nowrap text-brand hover:bg-brand-soft"
    >
      {AUDIT_TEXT.viewDetails}
      <span className="sr-only"> of the audit of {detailsDescription(audit)}</span>
    </Link>
  );
}

/** The details as part of the page (without JavaScript), both parts in turn. */
export function AuditDetailsSection({ audit, closeHref }: { audit: AuditRow; closeHref: string }) {
  return (
    <section
      id="audit-details"
      aria-labelledby="audit-details-heading"
      className="rounded-xl border-2 border-brand bg-white p-6 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 id="audit-details-heading" className="text-xl font-semibold">
            Security audit details
          </h2>
          <p className="mt-1 text-sm break-words text-ink-muted">{detailsDescription(audit)}</p>
        </div>
        <Link to={closeHref} className="font-semibold text-brand underline underline-offset-2">
          Close details
        </Link>
      </div>
      <h3 className="mt-6 text-lg font-semibold">Summary</h3>
      <div className="mt-3">
        <AuditSummary audit={audit} headingLevel={4} />
      </div>
      <h3 className="mt-8 text-lg font-semibold">{issuesTabLabel(audit)}</h3>
      <div className="mt-3">
        <AuditIssues audit={audit} headingLevel={4} />
      </div>
    </section>
  );
}
