// An RFC 4180 reader for files people export from spreadsheets (issue 23's CSV import). It runs in a
// worker thread (csv-worker.server.ts) on untrusted input, so it is written to be sent there as
// source text: ONE self-contained function, no imports, no references to anything outside it.
// Accepted beyond the RFC, because spreadsheets write them: `;` or tab as the delimiter (chosen from
// the header line), LF or CR line ends, a missing final line end, a quote inside an unquoted field
// (kept as it is). Blank lines are skipped but counted: row numbers are the spreadsheet's, the header
// is row 1.

export type CsvLimits = {
  /** Data rows, the header not counted. */
  maxRows: number;
  maxColumns: number;
  maxCellChars: number;
};

export type CsvTable = { header: string[]; rows: { line: number; cells: string[] }[]; delimiter: string };

export type CsvParseResult = ({ ok: true } & CsvTable) | { ok: false; message: string };

export function parseCsv(text: string, limits: CsvLimits): CsvParseResult {
  const QUOTE = 34;
  const CR = 13;
  const LF = 10;
  const fail = (message: string): CsvParseResult => ({ ok: false, message });
  if (text.includes("\u0000"))
    return fail("This is not a text file. Save the spreadsheet as CSV UTF-8 and upload that.");

  // The delimiter: whichever of , ; and tab the header line (outside quotes) has most of.
  let delimiter = ",";
  {
    const counts: Record<string, number> = { ",": 0, ";": 0, "\t": 0 };
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (c === '"') quoted = !quoted;
      else if (!quoted && (c === "\n" || c === "\r")) break;
      else if (!quoted && c in counts) counts[c] = (counts[c] ?? 0) + 1;
    }
    for (const candidate of [";", "\t"])
      if ((counts[candidate] ?? 0) > (counts[delimiter] ?? 0)) delimiter = candidate;
  }
  const DELIM = delimiter.charCodeAt(0);

  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  // The record's number as a spreadsheet shows it: a cell's line breaks do not start a new row.
  let recordLine = 1;
  let i = 0;
  const length = text.length;
  let endOfRecord = false;
  while (i <= length) {
    // One field starts at i.
    let value: string;
    if (text.charCodeAt(i) === QUOTE) {
      const openedOn = recordLine;
      let parts = "";
      let start = i + 1;
      for (;;) {
        const close = text.indexOf('"', start);
        if (close === -1)
          return fail(`Row ${openedOn}: a quoted cell is never closed. Check for a stray double quote (").`);
        if (text.charCodeAt(close + 1) === QUOTE) {
          parts += text.slice(start, close + 1);
          start = close + 2;
          continue;
        }
        parts += text.slice(start, close);
        i = close + 1;
        break;
      }
      value = parts;
      const next = text.charCodeAt(i);
      if (i < length && next !== DELIM && next !== CR && next !== LF)
        return fail(
          `Row ${recordLine}: text follows a closing quote. Quotes inside a cell must be doubled ("").`,
        );
    } else {
      let j = i;
      while (j < length) {
        const c = text.charCodeAt(j);
        if (c === DELIM || c === CR || c === LF) break;
        j++;
      }
      value = text.slice(i, j);
      i = j;
    }
    if (value.length > limits.maxCellChars)
      return fail(
        `Row ${recordLine}: a cell is longer than ${limits.maxCellChars.toLocaleString("en")} characters.`,
      );
    cells.push(value);
    if (cells.length > limits.maxColumns)
      return fail(
        `Row ${recordLine}: more than ${limits.maxColumns} columns. Remove the columns you do not import.`,
      );
    const c = text.charCodeAt(i);
    if (c === DELIM) {
      i++;
      continue;
    }
    // A line end or the end of the text closes the record.
    if (c === CR) i += text.charCodeAt(i + 1) === LF ? 2 : 1;
    else if (c === LF) i++;
    else i = length + 1;
    endOfRecord = true;
    if (endOfRecord) {
      const blank = cells.length === 1 && cells[0] === "";
      if (!blank) {
        records.push({ line: recordLine, cells });
        if (records.length > limits.maxRows + 1)
          return fail(
            `The file has more than ${limits.maxRows.toLocaleString("en")} rows. Split it into several files.`,
          );
      }
      cells = [];
      recordLine++;
      endOfRecord = false;
      if (i >= length) break;
    }
  }
  const [first, ...rest] = records;
  if (!first) return fail("The file is empty. The first row must name the columns.");
  const seen = new Set<string>();
  const header = first.cells.map((name, index) => {
    let label = name.trim() || `Column ${index + 1}`;
    if (seen.has(label)) label = `${label} (column ${index + 1})`;
    seen.add(label);
    return label;
  });
  if (rest.length === 0) return fail("The file has a header row but no rows under it.");
  return { ok: true, header, rows: rest, delimiter };
}
