import type { Kysely, RawBuilder, Transaction } from "kysely";
import { sql } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { UNKNOWN_CHANNEL } from "#app/lib/attribution.ts";
import { channelOf } from "./channel.ts";
import { type DailySalts, utcDay, type VisitorIdentity, visitorId } from "./daily-salt.server.ts";
import { optedOut } from "./page-view.ts";
import { MAX_USER_AGENT_LENGTH } from "./user-agent.ts";

// Attribution on every lead (issue 12, ADR 015). At submission the lead service asks `begin` for
// what to store with the lead, in the lead's own transaction: the visitor id of the day (the same
// hash a page view gets: day salt, client address, User-Agent, host), never the address, in a
// `pending` row. Nothing is looked up then: the submission stays on its fast path. Once the views
// have settled (SETTLE_MS: every instance writes its views within two seconds), `settleDue` finds
// that visitor's first page view of the UTC day at or before the submission, counts the views up to
// it, and makes the row `linked` with what that first view carried, or `unknown` when there is none;
// either way the hash is cleared. It runs on a timer of the instance that stored the lead, whenever
// staff read leads (any instance), and with the background pruning, so a lead stored by an instance
// that died is settled too. Several instances may settle the same row: the data they read has
// settled, so they compute the same answer, and only the first update applies (`status = 'pending'`).

/**
 * Views reach the database within two seconds of the request on every instance (a flush every
 * second, ADR 014); a second more of margin. A lead's attribution is final by this long after its
 * submission plus one settling pass: within 5 s on the instance that stored it.
 */
export const SETTLE_MS = 3000;
/** Rows settled per query batch. */
const SETTLE_BATCH = 100;

/** What the lead service knows of the request a lead came with (a Headers object will do). */
export type LeadVisit = {
  clientAddress: string;
  headers: { get(name: string): string | null };
  /** The request's protocol, `http:` or `https:`: the default port is left out of the host as for a page view. */
  protocol: string;
};

/**
 * Writes the lead's attribution row inside the lead's transaction; `statement` is that insert given
 * an expression of the lead's id, for the lead service to run inside the lead's own insert (one
 * round trip fewer per lead on PostgreSQL, issue 32 point 17). Either writes the same row.
 */
export type AttributionWrite = ((trx: Transaction<Database>, leadId: number) => Promise<void>) & {
  statement(leadId: RawBuilder<unknown>): RawBuilder<unknown>;
};

export type LeadAttribution = {
  /** Before the lead's transaction: the row to write with it (pending, or unknown at once). */
  begin(visit: LeadVisit, submittedAt: Date): Promise<AttributionWrite>;
  /** After the lead is committed: settles it on this instance once its views have settled. */
  stored(): void;
  /** Settles every pending row old enough; resolves to how many were settled. */
  settleDue(): Promise<number>;
  /** Stops the timer and waits for a pass in flight. */
  stop(): Promise<void>;
};

export type LeadAttributionOptions = {
  db: Kysely<Database>;
  salts: DailySalts;
  /** ANALYTICS=off: no page views, so every lead is Unknown at once and no hash is made. */
  enabled: boolean;
  settleMs?: number;
  now?: () => Date;
  /** One line per problem; never an address, a User-Agent or a lead's data. */
  logger?: { error(message: string): void };
};

/** The visitor identity of a request as the page-view counter builds it (page-view-counter.server.ts). */
export function visitorIdentityOf(visit: LeadVisit): VisitorIdentity | null {
  const hostHeader = visit.headers.get("host");
  if (!hostHeader) return null;
  let host: string;
  try {
    host = new URL(`${visit.protocol === "https:" ? "https:" : "http:"}//${hostHeader}`).host;
  } catch {
    return null;
  }
  return {
    clientAddress: visit.clientAddress,
    userAgent: (visit.headers.get("user-agent") ?? "").slice(0, MAX_USER_AGENT_LENGTH),
    host,
  };
}

type PendingRow = { leadId: number | string; visitorId: string | null; submittedAt: string };

export function createLeadAttribution({
  db,
  salts,
  enabled,
  settleMs = SETTLE_MS,
  now = () => new Date(),
  logger = { error: () => {} },
}: LeadAttributionOptions): LeadAttribution {
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let running: Promise<number> | undefined;
  let stopped = false;

  function schedule(at: number): void {
    if (stopped || at >= timerAt) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(
      () => {
        timer = undefined;
        timerAt = Number.POSITIVE_INFINITY;
        settleDue()
          .then(scheduleNext)
          .catch((error: Error) => {
            logger.error(
              `Attribution: settling leads failed (${error.message.split("\n")[0]?.slice(0, 200)})`,
            );
            schedule(Date.now() + 5000);
          });
      },
      Math.max(0, at - Date.now()),
    );
    // A pending row is settled on read or by another instance too: it must not keep a process alive.
    timer.unref();
  }

  /** After a pass: the next pending row's due time, if there is one (rows another instance stored included). */
  async function scheduleNext(): Promise<void> {
    const next = await db
      .selectFrom("leadAttributions")
      .select("submittedAt")
      .where(sql<boolean>`status = 'pending'`)
      .orderBy("submittedAt")
      .limit(1)
      .executeTakeFirst();
    if (next) schedule(Date.parse(next.submittedAt) + settleMs + 50);
  }

  /** What a pending row settles to, from reads only (they run on the reader threads). */
  async function settledValues(row: PendingRow): Promise<Record<string, unknown>> {
    const first =
      row.visitorId === null
        ? undefined
        : await db
            .selectFrom("analyticsPageViews")
            .select([
              "occurredAt",
              "path",
              "referrerHost",
              "referrerPath",
              "utmSource",
              "utmMedium",
              "utmCampaign",
              "utmTerm",
              "utmContent",
              "paidClick",
            ])
            .where("visitorId", "=", row.visitorId)
            .where("occurredAt", ">=", `${utcDay(row.submittedAt)}T00:00:00.000Z`)
            .where("occurredAt", "<=", row.submittedAt)
            .orderBy("occurredAt")
            .orderBy("id")
            .limit(1)
            .executeTakeFirst();
    let values: Record<string, unknown>;
    if (!first || row.visitorId === null) {
      values = { status: "unknown", channel: UNKNOWN_CHANNEL };
    } else {
      const counted = await db
        .selectFrom("analyticsPageViews")
        .select((eb) => eb.fn.countAll().as("count"))
        .where("visitorId", "=", row.visitorId)
        .where("occurredAt", ">=", first.occurredAt)
        .where("occurredAt", "<=", row.submittedAt)
        .executeTakeFirstOrThrow();
      // An internal referrer (this site's host, no path) is no referrer: the visit started here.
      const external = first.referrerPath !== null;
      values = {
        status: "linked",
        landingPage: first.path,
        referrerHost: external ? first.referrerHost : null,
        referrerPath: external ? first.referrerPath : null,
        channel: channelOf({ ...first, paidClick: Boolean(first.paidClick) }),
        utmSource: first.utmSource,
        utmMedium: first.utmMedium,
        utmCampaign: first.utmCampaign,
        utmTerm: first.utmTerm,
        utmContent: first.utmContent,
        landedAt: first.occurredAt,
        pagesBeforeSubmit: Number(counted.count),
        secondsToSubmit: Math.max(
          0,
          Math.round((Date.parse(row.submittedAt) - Date.parse(first.occurredAt)) / 1000),
        ),
      };
    }
    return values;
  }

  /**
   * Settles a batch: the lookups first, then every update in one transaction. One commit a batch,
   * not one a lead: under a stream of submissions each commit waits for SQLite's single writer,
   * and a commit per lead doubled the writes the leads themselves need (bench:admin).
   */
  async function settleBatch(rows: PendingRow[]): Promise<number> {
    const settledAt = now().toISOString();
    const results: { leadId: number; values: Record<string, unknown> }[] = [];
    for (const row of rows) results.push({ leadId: Number(row.leadId), values: await settledValues(row) });
    return db.transaction().execute(async (trx) => {
      let settled = 0;
      for (const { leadId, values } of results) {
        const result = await trx
          .updateTable("leadAttributions")
          .set({ ...values, visitorId: null, resolvedAt: settledAt })
          .where("leadId", "=", leadId)
          .where(sql<boolean>`status = 'pending'`)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) > 0) settled++;
      }
      return settled;
    });
  }

  async function settleBatches(): Promise<number> {
    let settled = 0;
    for (;;) {
      const cutoff = new Date(now().getTime() - settleMs).toISOString();
      const rows = await db
        .selectFrom("leadAttributions")
        .select(["leadId", "visitorId", "submittedAt"])
        .where(sql<boolean>`status = 'pending'`)
        .where("submittedAt", "<=", cutoff)
        .orderBy("submittedAt")
        .limit(SETTLE_BATCH)
        .execute();
      if (rows.length > 0) settled += await settleBatch(rows);
      if (rows.length < SETTLE_BATCH || stopped) return settled;
    }
  }

  function settleDue(): Promise<number> {
    if (stopped) return Promise.resolve(0);
    // One pass at a time on this instance; a read during a pass waits for it.
    running ??= settleBatches().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    async begin(visit, submittedAt) {
      const at = submittedAt.toISOString();
      const identity = enabled && !optedOut({ headers: headersOf(visit) }) ? visitorIdentityOf(visit) : null;
      let visitor: string | null = null;
      if (identity) {
        try {
          visitor = visitorId(await salts.get(utcDay(at)), identity);
        } catch (error) {
          // Never lose a lead for its attribution: without the day's salt it cannot be linked.
          logger.error(
            `Attribution: no salt for the day (${(error as Error).message.split("\n")[0]?.slice(0, 200)})`,
          );
        }
      }
      // A lead that can never be linked (an opted-out visitor, analytics off, no salt) is Unknown at once.
      const row =
        visitor === null
          ? { status: "unknown", visitorId: null, channel: UNKNOWN_CHANNEL, resolvedAt: at }
          : { status: "pending", visitorId: visitor, channel: null, resolvedAt: null };
      // Hand-written, as the lead's insert it joins (insertLead): the same row either way.
      const statement = (leadId: RawBuilder<unknown>) =>
        sql`insert into lead_attributions (lead_id, status, visitor_id, submitted_at, channel, resolved_at)
          values (${leadId}, ${row.status}, ${row.visitorId}, ${at}, ${row.channel}, ${row.resolvedAt})`;
      const write = async (trx: Transaction<Database>, leadId: number) => {
        await statement(sql`${leadId}`).execute(trx);
      };
      return Object.assign(write, { statement });
    },
    stored() {
      if (enabled) schedule(Date.now() + settleMs + 50);
    },
    settleDue,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      // A pass in flight finishes before the database closes (its next batch is not started).
      await running?.catch(() => {});
    },
  };
}

/** The opt-out headers of a lead's request, as the page-view classifier reads them. */
function headersOf(visit: LeadVisit): Record<string, string | undefined> {
  return {
    "sec-gpc": visit.headers.get("sec-gpc") ?? undefined,
    dnt: visit.headers.get("dnt") ?? undefined,
  };
}
