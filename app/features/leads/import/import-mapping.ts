// Which CSV column feeds which lead field (issue 23), shared by the import page (its selects and
// preview) and the server. A mapping names a column by its position; the API also takes header names.

export const IMPORT_FIELDS = {
  fullName: "Full name",
  email: "Email",
  company: "Company",
  phone: "Phone",
  message: "Message",
} as const;

export type ImportField = keyof typeof IMPORT_FIELDS;
export const IMPORT_FIELD_KEYS = Object.keys(IMPORT_FIELDS) as ImportField[];

/** Column index per field; null: not imported. */
export type ImportMapping = Record<ImportField, number | null>;

// Headers people's spreadsheets use, lower-cased with everything but letters removed.
const SYNONYMS: Record<ImportField, string[]> = {
  fullName: ["fullname", "name", "contactname", "contact", "person", "attendee", "attendeename", "nom"],
  email: ["email", "emailaddress", "mail", "workemail", "businessemail", "courriel"],
  company: [
    "company",
    "companyname",
    "organisation",
    "organization",
    "org",
    "account",
    "employer",
    "firm",
    "societe",
  ],
  phone: ["phone", "phonenumber", "telephone", "tel", "mobile", "mobilephone", "cell", "workphone"],
  message: ["message", "notes", "note", "comment", "comments", "details", "interest"],
};

const normalise = (header: string) =>
  header
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z]/g, "");

/** The mapping a header suggests: each field to the first column whose name is one of its synonyms. */
export function guessMapping(header: string[]): ImportMapping {
  const mapping = Object.fromEntries(IMPORT_FIELD_KEYS.map((field) => [field, null])) as ImportMapping;
  const taken = new Set<number>();
  for (const field of IMPORT_FIELD_KEYS) {
    const index = header.findIndex(
      (name, column) => !taken.has(column) && SYNONYMS[field].includes(normalise(name)),
    );
    if (index !== -1) {
      mapping[field] = index;
      taken.add(index);
    }
  }
  return mapping;
}

/**
 * A mapping sent by a form (`map.<field>` = column index or "") or the API (JSON: field → column
 * index, header name or null). Fields left out are not imported; Email is required (rows merge by it).
 */
export function readMapping(
  raw: Record<string, unknown>,
  header: string[],
): { ok: true; mapping: ImportMapping } | { ok: false; message: string } {
  const mapping = Object.fromEntries(IMPORT_FIELD_KEYS.map((field) => [field, null])) as ImportMapping;
  for (const [key, value] of Object.entries(raw)) {
    if (!(IMPORT_FIELD_KEYS as string[]).includes(key))
      return {
        ok: false,
        message: `Unknown field "${key.slice(0, 40)}": map ${IMPORT_FIELD_KEYS.join(", ")}.`,
      };
    const field = key as ImportField;
    if (value === null || value === "" || value === undefined) continue;
    let index = -1;
    if (typeof value === "number") index = value;
    else if (typeof value === "string" && /^\d{1,3}$/.test(value)) index = Number(value);
    else if (typeof value === "string") index = header.indexOf(value);
    if (!Number.isInteger(index) || index < 0 || index >= header.length)
      return { ok: false, message: `${IMPORT_FIELDS[field]}: there is no such column in the file.` };
    mapping[field] = index;
  }
  const used = IMPORT_FIELD_KEYS.map((field) => mapping[field]).filter((index) => index !== null);
  if (new Set(used).size !== used.length) return { ok: false, message: "A column can feed one field only." };
  if (mapping.email === null)
    return { ok: false, message: "Choose the column that holds the email: rows merge with people by it." };
  return { ok: true, mapping };
}
