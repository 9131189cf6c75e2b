import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { type LeadAttribution, toLeadAttribution } from "#app/lib/attribution.ts";
import { filterLeads, type LeadFilter } from "./lead-admin.server.ts";
import { type Lead, toLead } from "./lead-repository.server.ts";

type ExportedLead = Lead & { ownerName: string | null; attribution: LeadAttribution };

// The leads export (issue 4): RFC 4180 (every field quoted, quotes doubled, CRLF line ends), UTF-8
// with a byte-order mark so Excel reads accents correctly, streamed in batches so memory stays flat
// however many leads there are.

const BOM = "\uFEFF";
const BATCH = 1000;

const COLUMNS: [string, (lead: ExportedLead) => string | number | boolean | null][] = [
  ["ID", (lead) => lead.id],
  ["Created", (lead) => lead.createdAt],
  ["Updated", (lead) => lead.updatedAt],
  ["Type", (lead) => lead.requestType],
  ["Status", (lead) => lead.status],
  ["Owner", (lead) => lead.ownerName],
  ["Full name", (lead) => lead.fullName],
  ["Email", (lead) => lead.email],
  ["Company", (lead) => lead.company],
  ["Phone", (lead) => lead.phone],
  ["Message", (lead) => lead.message],
  ["Angel investor", (lead) => lead.investorType.angel],
  ["VC", (lead) => lead.investorType.vc],
  ["Introducer", (lead) => lead.investorType.introducer],
  ["Other", (lead) => lead.investorType.other],
  ["Other details", (lead) => lead.otherDetails],
  ["Source", (lead) => lead.source],
  ["Source page", (lead) => lead.sourcePage],
  ["Privacy notice version", (lead) => lead.privacyNoticeVersion],
  // The date of the policy's latest change the visitor was shown (its "Changes" section).
  ["Policy version", (lead) => lead.policyVersion],
  ["Spam", (lead) => lead.isSpam],
  ["Spam reason", (lead) => lead.spamReason],
  ["Spam score", (lead) => lead.spamScore],
  // Attribution (issue 12): "Unknown" when no visit could be linked; empty while still pending.
  ["Channel", (lead) => lead.attribution.channel],
  ["Landing page", (lead) => lead.attribution.landingPage],
  ["Referrer", (lead) => lead.attribution.referrer],
  ["UTM source", (lead) => lead.attribution.utmSource],
  ["UTM medium", (lead) => lead.attribution.utmMedium],
  ["UTM campaign", (lead) => lead.attribution.utmCampaign],
  ["UTM term", (lead) => lead.attribution.utmTerm],
  ["UTM content", (lead) => lead.attribution.utmContent],
  ["Pages before submit", (lead) => lead.attribution.pagesBeforeSubmit],
  ["Seconds to submit", (lead) => lead.attribution.secondsToSubmit],
];

/**
 * The first characters that make a spreadsheet run a cell as a formula: =, +, -, @, tab, CR, LF, and
 * (defence in depth, issue 22) their fullwidth twins ＝ ＋ － ＠ (U+FF1D, U+FF0B, U+FF0D, U+FF20),
 * which some spreadsheets fold to ASCII (Excel in East Asian locales, IME input).
 */
const FORMULA_START = /^[=+\-@\t\r\n\uff1d\uff0b\uff0d\uff20]/;

/** Text a spreadsheet would run as a formula, with a leading apostrophe; other text as it is. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * One CSV field. Text a spreadsheet would run as a formula (FORMULA_START) gets a leading
 * apostrophe, as OWASP recommends against CSV injection.
 */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '""';
  let text = typeof value === "boolean" ? (value ? "yes" : "no") : String(value);
  if (typeof value === "string") text = neutraliseFormula(text);
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvRow(lead: ExportedLead): string {
  return `${COLUMNS.map(([, read]) => csvField(read(lead))).join(",")}\r\n`;
}

export const CSV_HEADER = `${COLUMNS.map(([name]) => csvField(name)).join(",")}\r\n`;

/** `leads-2026-11-24.csv`; `-with-spam` or `-spam-only` when held spam is in the file. */
export function exportFileName(now = new Date(), spam: LeadFilter["spam"] = "exclude"): string {
  const suffix = spam === "include" ? "-with-spam" : spam === "only" ? "-spam-only" : "";
  return `leads-${now.toISOString().slice(0, 10)}${suffix}.csv`;
}

/** The matching leads, newest first, as a stream of CSV bytes read from the database a batch at a time. */
export function leadsCsvStream(
  db: Kysely<Database>,
  filter: LeadFilter,
  /** Told once how many rows went out, and whether the download ran to the end. */
  onEnd?: (rows: number, complete: boolean) => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let lastId: number | undefined;
  let started = false;
  let sent = 0;
  let ended = false;
  const end = (complete: boolean) => {
    if (ended) return;
    ended = true;
    onEnd?.(sent, complete);
  };
  return new ReadableStream<Uint8Array>(
    {
      cancel() {
        end(false);
      },
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(BOM + CSV_HEADER));
          return;
        }
        let query = filterLeads(
          db
            .selectFrom("leads")
            .leftJoin("users", "users.id", "leads.ownerId")
            .leftJoin("leadAttributions as attribution", "attribution.leadId", "leads.id")
            .selectAll("leads")
            .select("users.username as ownerName")
            .select([
              "attribution.status as attributionStatus",
              "attribution.landingPage",
              "attribution.referrerHost",
              "attribution.referrerPath",
              "attribution.channel",
              "attribution.utmSource",
              "attribution.utmMedium",
              "attribution.utmCampaign",
              "attribution.utmTerm",
              "attribution.utmContent",
              "attribution.pagesBeforeSubmit",
              "attribution.secondsToSubmit",
            ]),
          filter,
        );
        if (lastId !== undefined) query = query.where("leads.id", "<", lastId);
        // Keyset pagination on the primary key: each batch is an index range, not an OFFSET scan.
        const rows = await query.orderBy("leads.id", "desc").limit(BATCH).execute();
        if (rows.length === 0) {
          controller.close();
          end(true);
          return;
        }
        sent += rows.length;
        lastId = Number(rows[rows.length - 1]?.id);
        controller.enqueue(
          encoder.encode(
            rows
              .map((row) =>
                csvRow({
                  ...toLead(row),
                  ownerName: row.ownerName ?? null,
                  attribution: toLeadAttribution(
                    row.attributionStatus === null ? null : { ...row, status: row.attributionStatus },
                  ),
                }),
              )
              .join(""),
          ),
        );
      },
    },
    // One batch ahead at most: a slow download holds the next batch, not the whole table.
    { highWaterMark: 1 },
  );
}
