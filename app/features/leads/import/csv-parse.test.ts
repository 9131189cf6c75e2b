import { describe, expect, it } from "vitest";
import { type CsvLimits, parseCsv } from "./csv-parse.ts";
import { parseCsvOffThread } from "./csv-worker.server.ts";
import { guessMapping, readMapping } from "./import-mapping.ts";

const LIMITS: CsvLimits = { maxRows: 5, maxColumns: 4, maxCellChars: 20 };

describe("the CSV reader (RFC 4180 and what spreadsheets write)", () => {
  it("reads quoted cells with delimiters, doubled quotes and line breaks, and any line end", () => {
    const result = parseCsv('Name,Note\r\n"Stone, Bob","He said ""hi""\nthen left"\nAnn,plain\rZoe,last', {
      ...LIMITS,
      maxCellChars: 100,
    });
    expect(result).toEqual({
      ok: true,
      delimiter: ",",
      header: ["Name", "Note"],
      rows: [
        { line: 2, cells: ["Stone, Bob", 'He said "hi"\nthen left'] },
        { line: 3, cells: ["Ann", "plain"] },
        { line: 4, cells: ["Zoe", "last"] },
      ],
    });
  });

  it("takes ; or tab as the delimiter when the header says so, skips blank lines, names blank headers", () => {
    const result = parseCsv("Name;Email;\n\nAnn;ann@example.com;x\n", LIMITS);
    expect(result).toMatchObject({ ok: true, delimiter: ";", header: ["Name", "Email", "Column 3"] });
    expect(parseCsv("a\tb\n1\t2", LIMITS)).toMatchObject({ delimiter: "\t", rows: [{ cells: ["1", "2"] }] });
  });

  it("refuses what it cannot read, saying where", () => {
    expect(parseCsv('a,b\n"open,1\n', LIMITS)).toEqual({
      ok: false,
      message: expect.stringMatching(/^Row 2: a quoted cell is never closed/),
    });
    expect(parseCsv('a,b\n"x"y,1\n', LIMITS)).toEqual({
      ok: false,
      message: expect.stringMatching(/^Row 2: text follows a closing quote/),
    });
    expect(parseCsv("a,b\n", LIMITS)).toEqual({
      ok: false,
      message: expect.stringMatching(/no rows under it/),
    });
    expect(parseCsv("", LIMITS)).toEqual({ ok: false, message: expect.stringMatching(/empty/) });
    expect(parseCsv("a\u0000b\n1", LIMITS)).toEqual({
      ok: false,
      message: expect.stringMatching(/not a text file/),
    });
  });

  it("stops at the limits: rows, columns, cell length", () => {
    expect(parseCsv(["h", "1", "2", "3", "4", "5", "6"].join("\n"), LIMITS)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/more than 5 rows/),
    });
    expect(parseCsv("a,b,c,d,e\n1", LIMITS)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/more than 4 columns/),
    });
    expect(parseCsv(`a\n${"x".repeat(21)}`, LIMITS)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/longer than 20 characters/),
    });
  });
});

describe("reading an upload in the worker thread", () => {
  it("refuses bytes that are not UTF-8, UTF-16 files and files over 5 MB", async () => {
    const latin1 = new Uint8Array([0x4e, 0x61, 0x6d, 0x65, 0x0a, 0x4a, 0x6f, 0x73, 0xe9]);
    expect(await parseCsvOffThread(latin1)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not UTF-8/),
    });
    expect(await parseCsvOffThread(new Uint8Array([0xff, 0xfe, 0x41, 0x00]))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/UTF-16/),
    });
    expect(await parseCsvOffThread(new Uint8Array(5 * 1024 * 1024 + 1))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/larger than 5 MB/),
    });
  });

  it("strips the byte-order mark Excel writes and gives the text back when asked", async () => {
    const bytes = new TextEncoder().encode("\uFEFFEmail\nann@example.com\n");
    expect(await parseCsvOffThread(bytes, { withText: true })).toMatchObject({
      ok: true,
      header: ["Email"],
      text: "Email\nann@example.com\n",
    });
  });

  it("survives a hostile file: one 5 MB line of quotes and delimiters", async () => {
    const hostile = new TextEncoder().encode(`Email\n${'"",'.repeat(1_700_000)}`);
    const result = await parseCsvOffThread(hostile);
    expect(result).toMatchObject({ ok: false, message: expect.stringMatching(/more than 50 columns/) });
  });
});

describe("matching columns to fields", () => {
  it("guesses from common headers and reads a mapping by header name or index", () => {
    const header = ["E-mail Address", "Contact Name", "Organization", "Mobile", "Comments"];
    expect(guessMapping(header)).toEqual({ fullName: 1, email: 0, company: 2, phone: 3, message: 4 });
    expect(readMapping({ email: "E-mail Address", fullName: 1 }, header)).toEqual({
      ok: true,
      mapping: { fullName: 1, email: 0, company: null, phone: null, message: null },
    });
    expect(readMapping({ fullName: 1 }, header)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/email/),
    });
    expect(readMapping({ email: 0, company: 0 }, header)).toMatchObject({ ok: false });
    expect(readMapping({ email: "Nope" }, header)).toMatchObject({ ok: false });
    expect(readMapping({ email: 0, salary: 1 }, header)).toMatchObject({ ok: false });
  });
});
