import { data } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { SectionCard } from "#app/components/back-office/section-card.tsx";
import { loadAnalyticsReport } from "#app/features/analytics/analytics-http.server.ts";
import type {
  CampaignRow,
  ChannelRow,
  EntryPageRow,
  MeetingCampaignRow,
  MeetingChannelRow,
  MeetingCounts,
  NotFoundRow,
  OutsideSourceRow,
  PageRow,
  ReferrerRow,
} from "#app/features/analytics/analytics-report.ts";
import { Funnel } from "#app/features/analytics/ui/funnel.tsx";
import { HeadlineFigures } from "#app/features/analytics/ui/headline-figures.tsx";
import { MeetingsSummary } from "#app/features/analytics/ui/meetings-summary.tsx";
import { PeriodPicker } from "#app/features/analytics/ui/period-picker.tsx";
import { formatCount, formatRange, formatRate } from "#app/features/analytics/ui/report-format.ts";
import { type Column, ReportTable } from "#app/features/analytics/ui/report-table.tsx";
import { VisitsChart } from "#app/features/analytics/ui/visits-chart.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import type { Route } from "./+types/analytics";

// Issue 12: where visitors come from and which pages and campaigns turn them into leads, for a
// period of UTC days against the one before. Server-rendered; the period picker is links and a GET
// form, the chart an SVG with its numbers as a table: all of it works without JavaScript.

export const meta: Route.MetaFunction = () => adminMeta("Analytics");

const PATH = "/admin/analytics";

export async function loader({ request, context }: Route.LoaderArgs) {
  const loaded = await loadAnalyticsReport(request, context);
  // A period the URL got wrong: the page says why, with the picker to choose another (400).
  if (!loaded.ok) return data(loaded, { status: 400 });
  return loaded;
}

const count = (value: number) => formatCount(value);
const visitorsColumns = <
  T extends { visitors: number; views: number; leads: number; conversionRate: number | null },
>(
  first: Column<T>,
): Column<T>[] => [
  first,
  { label: "Visitors", cell: (row) => count(row.visitors) },
  { label: "Views", cell: (row) => count(row.views) },
  { label: "Leads", cell: (row) => count(row.leads) },
  { label: "Conversion", cell: (row) => formatRate(row.conversionRate) },
];

const meetingColumns = <T extends MeetingCounts>(first: Column<T>): Column<T>[] => [
  first,
  { label: "Meetings", cell: (row) => count(row.meetings) },
  { label: "Held", cell: (row) => count(row.held) },
  { label: "No-show", cell: (row) => count(row.noShow) },
];

export default function Analytics({ loaderData }: Route.ComponentProps) {
  // A refused period: the picker shows the dates as they were sent, to correct them.
  const period = loaderData.ok ? loaderData.period : { ...loaderData.asked, preset: "custom" as const };
  return (
    <div className="mx-auto grid max-w-7xl grid-cols-1 gap-6 px-4 py-8 sm:px-6">
      <PageHeader
        title="Analytics"
        description={
          <>
            Visits counted on the server without cookies, and the leads they turned into. Days are UTC days. A
            visitor is counted once a day: the visitors of a period are each day's unique visitors added up.
          </>
        }
      />

      <PeriodPicker period={period} today={loaderData.today} basePath={PATH} />

      {!loaderData.ok ? (
        <Banner tone="error">{loaderData.message}</Banner>
      ) : (
        <>
          {loaderData.counting ? null : (
            <Banner tone="info">
              Page views are not being counted: the server runs with ANALYTICS=off. Leads are still counted.
            </Banner>
          )}
          <Report report={loaderData.report} />
        </>
      )}
    </div>
  );
}

function Report({ report }: { report: Extract<Route.ComponentProps["loaderData"], { ok: true }>["report"] }) {
  const { previous } = report;
  return (
    <>
      <p className="-mt-2 text-ink-muted">
        <span className="font-semibold text-ink">{formatRange(report.from, report.to)}</span> compared with{" "}
        {formatRange(previous.from, previous.to)}
      </p>
      <HeadlineFigures current={report} previous={previous} />

      <SectionCard id="chart-heading" title="Visitors and leads over time">
        <VisitsChart
          series={report.series}
          granularity={report.granularity}
          from={report.from}
          to={report.to}
        />
      </SectionCard>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Funnel funnel={report.funnel} />
        <ReportTable<ChannelRow>
          id="channels-heading"
          title="Channels"
          description="From each visitor's first page view of the day; leads by their attribution."
          rows={report.channels}
          rowKey={(row) => row.channel}
          columns={visitorsColumns({ label: "Channel", cell: (row) => row.channel })}
          empty="No visits in this period."
        />
        <ReportTable<OutsideSourceRow>
          id="outside-leads-heading"
          title="Leads from outside the website"
          description={`Added by staff, imported from a file or sent with an API key: ${formatCount(report.outsideLeads)} in this period. They are leads, not visits that converted: no other table, rate or funnel on this page counts them.`}
          rows={report.outsideSources}
          rowKey={(row) => row.source}
          columns={[
            { label: "Source", cell: (row) => row.source },
            { label: "Leads", cell: (row) => count(row.leads) },
          ]}
          empty="Every lead of this period came through the website."
        />
        <MeetingsSummary meetings={report.meetings} />
        <ReportTable<MeetingChannelRow>
          id="meetings-channels-heading"
          title="Meetings by channel"
          description="Meetings booked in this period, by their lead's channel."
          rows={report.meetings.byChannel}
          rowKey={(row) => row.channel}
          columns={meetingColumns({ label: "Channel", cell: (row) => row.channel })}
          empty="No meeting was booked in this period."
        />
        <ReportTable<MeetingCampaignRow>
          id="meetings-campaigns-heading"
          title="Meetings by campaign"
          description="Meetings booked in this period, by their lead's utm_campaign."
          rows={report.meetings.byCampaign}
          rowKey={(row) => row.campaign}
          columns={meetingColumns({ label: "Campaign", cell: (row) => row.campaign })}
          empty="No meeting of this period came from a lead with a utm_campaign."
        />
        <ReportTable<PageRow>
          id="pages-heading"
          title="Top pages"
          description="Leads that started on the page (their visit's first page), over the page's visitors."
          rows={report.pages}
          rowKey={(row) => row.path}
          columns={visitorsColumns({ label: "Page", cell: (row) => row.path })}
          empty="No page views in this period."
        />
        <ReportTable<EntryPageRow>
          id="entry-pages-heading"
          title="Entry pages"
          description="The first page of each visitor's day: visitors who entered there, their views and leads."
          rows={report.entryPages}
          rowKey={(row) => row.path}
          columns={visitorsColumns({ label: "Entry page", cell: (row) => row.path })}
          empty="No visits in this period."
        />
        <ReportTable<ReferrerRow>
          id="referrers-heading"
          title="Referrers"
          description="Other sites that sent visitors."
          rows={report.referrers}
          rowKey={(row) => row.host}
          columns={visitorsColumns({ label: "Site", cell: (row) => row.host })}
          empty="No visitor came from another site in this period."
        />
        <ReportTable<CampaignRow>
          id="campaigns-heading"
          title="Campaigns"
          description="The utm_campaign of each visitor's first page view."
          rows={report.campaigns}
          rowKey={(row) => row.campaign}
          columns={visitorsColumns({ label: "Campaign", cell: (row) => row.campaign })}
          empty="No visitor came with a utm_campaign in this period."
        />
        <ReportTable<{ device: string; visitors: number; views: number }>
          id="devices-heading"
          title="Devices"
          rows={report.devices}
          rowKey={(row) => row.device}
          columns={[
            { label: "Device", cell: (row) => row.device.charAt(0).toUpperCase() + row.device.slice(1) },
            { label: "Visitors", cell: (row) => count(row.visitors) },
            { label: "Views", cell: (row) => count(row.views) },
          ]}
          empty="No visits in this period."
        />
        <ReportTable<{ browser: string; visitors: number; views: number }>
          id="browsers-heading"
          title="Browsers"
          rows={report.browsers}
          rowKey={(row) => row.browser}
          columns={[
            { label: "Browser", cell: (row) => row.browser },
            { label: "Visitors", cell: (row) => count(row.visitors) },
            { label: "Views", cell: (row) => count(row.views) },
          ]}
          empty="No visits in this period."
        />
        <ReportTable<NotFoundRow>
          id="not-found-heading"
          title="Pages not found (404)"
          description="Paths visitors asked for that do not exist: broken links to fix or redirect."
          rows={report.notFound}
          rowKey={(row) => row.path}
          columns={[
            { label: "Path", cell: (row) => row.path },
            { label: "Views", cell: (row) => count(row.views) },
            { label: "Visitors", cell: (row) => count(row.visitors) },
          ]}
          empty="No 404s in this period."
        />
      </div>
    </>
  );
}
