import { beforeEach, describe, expect, it } from "vitest";
import { toLeadAttribution } from "#app/lib/attribution.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { acceptsGzip } from "./lead-admin-http.server.ts";
import { CSV_HEADER, csvField, csvRow, exportFileName, leadsCsvStream } from "./lead-csv.server.ts";
import { findLead } from "./lead-repository.server.ts";

/** RFC 4180 parsing (quoted fields, doubled quotes, CRLF records) to read back what was written. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const character = text[i];
    if (quoted) {
      if (character === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (character === '"') {
        quoted = false;
      } else {
        field += character;
      }
    } else if (character === '"') {
      quoted = true;
    } else if (character === ",") {
      record.push(field);
      field = "";
    } else if (character === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else {
      throw new Error(`unexpected ${JSON.stringify(character)} outside quotes at ${i}`);
    }
  }
  if (field || record.length > 0) throw new Error("the last record does not end with CRLF");
  return records;
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<{ bytes: Uint8Array; chunks: number }> {
  const parts: Uint8Array[] = [];
  for await (const chunk of stream) parts.push(chunk);
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}

const COLUMNS = [
  "ID",
  "Created",
  "Updated",
  "Type",
  "Status",
  "Owner",
  "Full name",
  "Email",
  "Company",
  "Phone",
  "Message",
  "Angel investor",
  "VC",
  "Introducer",
  "Other",
  "Other details",
  "Source",
  "Source page",
  "Privacy notice version",
  "Policy version",
  "Spam",
  "Spam reason",
  "Spam score",
  "Channel",
  "Landing page",
  "Referrer",
  "UTM source",
  "UTM medium",
  "UTM campaign",
  "UTM term",
  "UTM content",
  "Pages before submit",
  "Seconds to submit",
];

describe("CSV fields", () => {
  it("quotes every field and doubles quotes inside", () => {
    expect(csvField("plain")).toBe('"plain"');
    expect(csvField('say "hi", then go')).toBe('"say ""hi"", then go"');
    expect(csvField("line one\r\nline two")).toBe('"line one\r\nline two"');
    expect(csvField("")).toBe('""');
    expect(csvField(null)).toBe('""');
    expect(csvField(42)).toBe('"42"');
    expect(csvField(true)).toBe('"yes"');
    expect(csvField(false)).toBe('"no"');
  });

  it.each([
    ["=", "=SUM(A1:A9)"],
    ["+", "+44 7700 900123"],
    ["-", "-2+3"],
    ["@", "@cmd"],
    ["tab", "\t=1+1"],
    ["CR", "\r=1+1"],
    ["LF", "\n=1+1"],
    ["fullwidth ＝ (U+FF1D)", "\uff1dSUM(A1:A9)"],
    ["fullwidth ＋ (U+FF0B)", "\uff0b44 7700 900123"],
    ["fullwidth － (U+FF0D)", "\uff0d2+3"],
    ["fullwidth ＠ (U+FF20)", "\uff20cmd"],
  ])("neutralises a cell starting with %s against formula injection", (_name, value) => {
    expect(csvField(value)).toBe(`"'${value}"`);
  });

  it("leaves those characters alone anywhere but first, and neutralises after quoting", () => {
    expect(csvField("a=b+c-d@e")).toBe('"a=b+c-d@e"');
    expect(csvField(" =not first")).toBe('" =not first"');
    expect(csvField('=HYPERLINK("http://evil.example")')).toBe('"\'=HYPERLINK(""http://evil.example"")"');
  });

  it("has a header with every column, CRLF-terminated", () => {
    expect(CSV_HEADER.endsWith("\r\n")).toBe(true);
    expect(parseCsv(CSV_HEADER)).toEqual([COLUMNS]);
  });

  it("names the file with the date", () => {
    expect(exportFileName(new Date("2026-03-04T23:59:59.000Z"))).toBe("leads-2026-03-04.csv");
    expect(exportFileName()).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.csv$/);
  });
});

describeEachDatabase("leads CSV export", (use) => {
  const db = () => use().db;
  const base = Date.parse("2026-01-01T00:00:00.000Z");

  async function addLeads(count: number, spamEvery = 0): Promise<void> {
    const rows = Array.from({ length: count }, (_, index) => {
      const at = new Date(base + index * 60_000).toISOString();
      return leadRow({
        fullName: `Lead ${index + 1}`,
        email: `lead${index + 1}@example.com`,
        company: index % 2 ? "Odd Builders" : "Even Contractors",
        phone: "020 7946 0000",
        isSpam: spamEvery && (index + 1) % spamEvery === 0 ? 1 : 0,
        createdAt: at,
        updatedAt: at,
      });
    });
    // In slices: one multi-row insert must stay under the databases' parameter limits.
    for (let start = 0; start < rows.length; start += 500) {
      await db()
        .insertInto("leads")
        .values(rows.slice(start, start + 500))
        .execute();
    }
  }

  beforeEach(async () => {
    await db().deleteFrom("leadStatusChanges").execute();
    await db().deleteFrom("leads").execute();
  });

  it("starts with the UTF-8 byte-order mark and the header, and writes every field of a lead", async () => {
    const [row] = await db()
      .insertInto("leads")
      .values({
        requestType: "investor",
        fullName: "Zoë O'Brien-Łukasik",
        email: "zoe@example.ie",
        company: '=cmd|" /C calc"!A0',
        phone: "+353 1 555 0100",
        message: 'We invest in "proptech".\r\nLet\'s talk, @you.',
        investorAngel: 1,
        investorVc: 0,
        investorIntroducer: 1,
        investorOther: 1,
        otherDetails: "Family office, €2m ticket",
        sourcePage: "/invest",
        privacyNoticeVersion: "2025-04-01",
        isSpam: 0,
        spamReason: null,
        status: "qualified",
        createdAt: "2026-02-03T04:05:06.000Z",
        updatedAt: "2026-02-04T04:05:06.000Z",
      })
      .returning("id")
      .execute();
    const { bytes } = await readAll(leadsCsvStream(db(), {}));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith(`\uFEFF${CSV_HEADER}`)).toBe(true);
    expect(text.endsWith("\r\n")).toBe(true);
    const lead = await findLead(db(), Number(row?.id));
    if (!lead) throw new Error("lead not stored");
    expect(text.slice(1)).toBe(
      CSV_HEADER + csvRow({ ...lead, ownerName: null, attribution: toLeadAttribution(null) }),
    );
    expect(parseCsv(text.slice(1))).toEqual([
      COLUMNS,
      [
        String(lead.id),
        "2026-02-03T04:05:06.000Z",
        "2026-02-04T04:05:06.000Z",
        "investor",
        "qualified",
        "",
        "Zoë O'Brien-Łukasik",
        "zoe@example.ie",
        `'=cmd|" /C calc"!A0`,
        "'+353 1 555 0100",
        'We invest in "proptech".\r\nLet\'s talk, @you.',
        "yes",
        "no",
        "yes",
        "yes",
        "Family office, €2m ticket",
        "form",
        "/invest",
        "2025-04-01",
        // The policy's first version: no change since (the column's default for rows from before 020).
        "2025-04-01",
        "no",
        "",
        "0",
        // No attribution row (a lead from before attribution): Unknown, nothing else.
        "Unknown",
        ...Array(9).fill(""),
      ],
    ]);
  });

  it("is only the header when nothing matches", async () => {
    const { bytes } = await readAll(leadsCsvStream(db(), { q: "nothing matches this" }));
    expect(Buffer.from(bytes).toString("utf8")).toBe(`\uFEFF${CSV_HEADER}`);
  });

  it("streams thousands of leads in batches: each exactly once, newest first", async () => {
    await addLeads(2_345);
    const { bytes, chunks } = await readAll(leadsCsvStream(db(), {}));
    // The header, then one chunk per batch of 1,000: the stream never holds the whole table.
    expect(chunks).toBe(1 + 3);
    const records = parseCsv(Buffer.from(bytes).toString("utf8").slice(1));
    expect(records[0]).toEqual(COLUMNS);
    const names = records.slice(1).map((record) => record[COLUMNS.indexOf("Full name")]);
    expect(names).toHaveLength(2_345);
    expect(new Set(names).size).toBe(2_345);
    expect(names).toEqual(Array.from({ length: 2_345 }, (_, index) => `Lead ${2_345 - index}`));
    const ids = records.slice(1).map((record) => Number(record[0]));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it("applies the list's filters (spam left out by default, search, status) across batches", async () => {
    await addLeads(2_100, 7);
    const count = async (filter: Parameters<typeof leadsCsvStream>[1]) => {
      const { bytes } = await readAll(leadsCsvStream(db(), filter));
      return parseCsv(Buffer.from(bytes).toString("utf8").slice(1)).length - 1;
    };
    expect(await count({})).toBe(1_800);
    expect(await count({ spam: "include" })).toBe(2_100);
    expect(await count({ spam: "only" })).toBe(300);
    expect(await count({ q: "ODD builders" })).toBe(900);
    expect(await count({ status: "customer" })).toBe(0);
  });

  it("reads the database only as fast as the download goes", async () => {
    await addLeads(3_000);
    const reader = leadsCsvStream(db(), {}).getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value ?? []).toString("utf8")).toBe(`\uFEFF${CSV_HEADER}`);
    const second = await reader.read();
    // One batch per read: the rest is still in the database.
    expect(parseCsv(Buffer.from(second.value ?? []).toString("utf8"))).toHaveLength(1_000);
    await reader.cancel();
  });
});

describe("acceptsGzip", () => {
  it.each([
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.5", true],
    ["*", true],
    ["gzip;q=0", false],
    ["br", false],
    [null, false],
  ])("%s → %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
