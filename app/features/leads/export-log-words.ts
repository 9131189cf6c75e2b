import { countOf } from "#app/lib/count-words.ts";
import { statusLabel } from "./ui/lead-format.ts";
import { FILTER_KEYS } from "./ui/lead-list-url.ts";

// How the access log tells an export (issue 22): "Exported 3 leads", then which leads in words
// ("The ticked leads", "Filter: status Contacted, a search") instead of the query string the
// export was asked with. Entries written before the export kept only its filter parameters may
// hold other fields of the dashboard's form (intent, do): anything unknown is left out.

/** The export's filter parameters that say which leads it held (paging and sorting do not). */
export const EXPORT_FILTER_PARAMS = ["ids", ...FILTER_KEYS] as const;

const SPAM_WORDS: Record<string, string> = { only: "held spam only", include: "spam included" };
const TYPE_WORDS: Record<string, string> = { demo: "demo requests", investor: "investor interest" };

/** The headline of an export entry: how many leads went out. */
export function exportHeadline(rows: number, complete: boolean): string {
  return complete ? `Exported ${countOf(rows, "lead")}` : `Export stopped after ${countOf(rows, "lead")}`;
}

/** Which leads an export held, from its stored filter (a query string, or "all leads"). */
export function exportFilterWords(filter: string): string {
  const params = new URLSearchParams(filter === "all leads" ? "" : filter);
  const words: string[] = [];
  const get = (name: string) => params.get(name) || null;
  const ids = params
    .getAll("ids")
    .flatMap((value) => value.split(","))
    .filter(Boolean);
  const status = get("status");
  if (status) words.push(`status ${statusLabel(status)}`);
  if (get("q")) words.push("a search");
  const spam = get("spam");
  if (spam && SPAM_WORDS[spam]) words.push(SPAM_WORDS[spam]);
  const owner = get("owner");
  if (owner === "me") words.push("assigned to them");
  else if (owner === "none") words.push("unassigned");
  else if (owner) words.push(`assigned to staff account #${owner}`);
  const type = get("type");
  if (type && TYPE_WORDS[type]) words.push(TYPE_WORDS[type]);
  const from = get("from");
  const to = get("to");
  if (from) words.push(`from ${from}`);
  if (to) words.push(`to ${to}`);
  const channel = get("channel");
  if (channel) words.push(`channel ${channel.replaceAll("-", " ")}`);
  const campaign = get("campaign");
  if (campaign) words.push(`campaign “${campaign}”`);
  const filtered = words.join(", ");
  if (ids.length > 0)
    return filtered ? `Ticked on the dashboard; filter: ${filtered}` : "Ticked on the dashboard";
  return filtered ? `Filter: ${filtered}` : "All leads";
}
