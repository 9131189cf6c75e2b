// The rules `promtool check metrics` applies to a Prometheus text exposition (client_golang's
// promlint), so a test can hold /metrics to them on a machine without promtool (issue 22). One rule
// is stricter than promtool's: an untyped metric must not end in `_total` either (promtool lets
// untyped through; nothing we expose is untyped, and one that is should be typed).

export type MetricType = "counter" | "gauge" | "histogram" | "summary" | "untyped";

export type MetricFamily = {
  name: string;
  type: MetricType;
  help: string | undefined;
  /** Label names seen on its samples. */
  labels: Set<string>;
};

export type LintProblem = { metric: string; text: string };

const TYPES = new Set<MetricType>(["counter", "gauge", "histogram", "summary", "untyped"]);
const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+-?\d+)?$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*,?/gy;

/** The family a sample belongs to: `x_bucket` to histogram `x`, `x_sum`/`x_count` to a histogram or summary. */
function familyOf(sample: string, families: Map<string, MetricFamily>): MetricFamily | undefined {
  const own = families.get(sample);
  if (own) return own;
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    if (!sample.endsWith(suffix)) continue;
    const family = families.get(sample.slice(0, -suffix.length));
    if (family?.type === "histogram" || (family?.type === "summary" && suffix !== "_bucket")) return family;
  }
  return undefined;
}

/**
 * Parses the text format the way promtool does, strictly: a malformed line, a second HELP or TYPE
 * for one name, an unknown type or an unparsable value throws with the line number.
 */
export function parseExposition(text: string): MetricFamily[] {
  const families = new Map<string, MetricFamily>();
  const helped = new Set<string>();
  const typed = new Set<string>();
  const samplesSeen = new Set<string>();
  const family = (name: string) => {
    let found = families.get(name);
    if (!found) {
      found = { name, type: "untyped", help: undefined, labels: new Set() };
      families.set(name, found);
    }
    return found;
  };
  text.split("\n").forEach((line, index) => {
    const where = `line ${index + 1}`;
    if (line.trim() === "") return;
    if (line.startsWith("#")) {
      const match = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(line);
      if (!match) return; // A plain comment.
      const [, keyword, name = "", rest = ""] = match;
      if (!NAME.test(name)) throw new Error(`${where}: invalid metric name ${JSON.stringify(name)}`);
      if (keyword === "HELP") {
        if (helped.has(name)) throw new Error(`${where}: second HELP line for ${name}`);
        helped.add(name);
        family(name).help = rest;
      } else {
        if (typed.has(name)) throw new Error(`${where}: second TYPE line for ${name}`);
        if (samplesSeen.has(name)) throw new Error(`${where}: TYPE for ${name} after its samples`);
        const type = rest.trim() as MetricType;
        if (!TYPES.has(type)) throw new Error(`${where}: unknown type ${JSON.stringify(rest)} for ${name}`);
        typed.add(name);
        family(name).type = type;
      }
      return;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`${where}: not a sample: ${JSON.stringify(line)}`);
    const [, sample = "", , labelText = "", value = ""] = match;
    // Go's ParseFloat: NaN and Inf in any case (prom-client writes "Nan").
    if (!/^([+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?|[+-]?inf(inity)?|nan)$/i.test(value))
      throw new Error(`${where}: invalid value ${JSON.stringify(value)}`);
    const labels: string[] = [];
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < labelText.length) {
      const start = LABEL.lastIndex;
      const label = LABEL.exec(labelText);
      if (!label || LABEL.lastIndex === start) throw new Error(`${where}: malformed labels {${labelText}}`);
      labels.push(label[1] ?? "");
    }
    if (new Set(labels).size !== labels.length)
      throw new Error(`${where}: a label repeated in {${labelText}}`);
    samplesSeen.add(sample);
    const owner = familyOf(sample, families) ?? family(sample);
    for (const label of labels) owner.labels.add(label);
  });
  return [...families.values()];
}

const UNITS: Record<string, string> = {
  amperes: "amperes",
  bytes: "bytes",
  celsius: "celsius",
  grams: "grams",
  joules: "joules",
  kelvin: "kelvin",
  meters: "meters",
  metres: "metres",
  seconds: "seconds",
  volts: "volts",
  minutes: "seconds",
  hours: "seconds",
  days: "seconds",
  weeks: "seconds",
  kelvins: "kelvin",
  fahrenheit: "celsius",
  rankine: "celsius",
  inches: "meters",
  yards: "meters",
  miles: "meters",
  bits: "bytes",
  calories: "joules",
  pounds: "grams",
  ounces: "grams",
};
const UNIT_PREFIXES = [
  "",
  "pico",
  "nano",
  "micro",
  "milli",
  "centi",
  "deci",
  "deca",
  "hecto",
  "kilo",
  "kibi",
  "mega",
  "mibi",
  "giga",
  "gibi",
  "tera",
  "tebi",
  "peta",
  "pebi",
];
const UNIT_ABBREVIATIONS = ["s", "ms", "us", "ns", "sec", "b", "kb", "mb", "gb", "tb", "pb", "m", "h", "d"];
const TYPES_IN_NAMES = ["counter", "gauge", "histogram", "summary", "gaugehistogram"];

const hasPart = (name: string, part: string) => name.includes(`_${part}_`) || name.endsWith(`_${part}`);

/** promlint's problems for one family, in its words. */
export function lintFamily(family: MetricFamily): string[] {
  const { name, type } = family;
  const problems: string[] = [];
  if (family.help === undefined) problems.push("no help text");
  for (const part of name.split("_")) {
    const unit = UNIT_PREFIXES.map((prefix) => ({ prefix, base: UNITS[part.slice(prefix.length)] })).find(
      ({ prefix, base }) => part.startsWith(prefix) && base !== undefined,
    );
    if (unit) {
      if (unit.base !== part) problems.push(`use base unit "${unit.base}" instead of "${part}"`);
      break;
    }
  }
  const total = name.endsWith("_total");
  if (type === "counter" && !total) problems.push(`counter metrics should have "_total" suffix`);
  // promtool exempts untyped here; we do not (see the top of this file).
  if (type !== "counter" && total) problems.push(`non-counter metrics should not have "_total" suffix`);
  if (type !== "untyped") {
    const histogram = type === "histogram";
    const summary = type === "summary";
    if (!histogram && name.endsWith("_bucket"))
      problems.push(`non-histogram metrics should not have "_bucket" suffix`);
    for (const suffix of ["_count", "_sum"])
      if (!histogram && !summary && name.endsWith(suffix))
        problems.push(`non-histogram and non-summary metrics should not have "${suffix}" suffix`);
    if (!histogram && family.labels.has("le"))
      problems.push(`non-histogram metrics should not have "le" label`);
    if (!summary && family.labels.has("quantile"))
      problems.push(`non-summary metrics should not have "quantile" label`);
  }
  const lower = name.toLowerCase();
  for (const typeName of TYPES_IN_NAMES)
    if (hasPart(lower, typeName)) problems.push(`metric name should not include type '${typeName}'`);
  if (name.includes(":")) problems.push("metric names should not contain ':'");
  if (/[a-z][A-Z]/.test(name))
    problems.push("metric names should be written in 'snake_case' not 'camelCase'");
  if ([...family.labels].some((label) => /[a-z][A-Z]/.test(label)))
    problems.push("label names should be written in 'snake_case' not 'camelCase'");
  for (const abbreviation of UNIT_ABBREVIATIONS)
    if (hasPart(lower, abbreviation)) problems.push("metric names should not contain abbreviated units");
  if (type !== "gauge" && type !== "untyped" && name.endsWith("_timestamp_seconds"))
    problems.push(`non-gauge metrics should not have "_timestamp_seconds" suffix`);
  return problems;
}

/** Every problem in an exposition, sorted like promtool's output (`name text`). Throws when it does not parse. */
export function lintExposition(text: string): LintProblem[] {
  return parseExposition(text)
    .flatMap((family) => lintFamily(family).map((problem) => ({ metric: family.name, text: problem })))
    .sort((a, b) => a.metric.localeCompare(b.metric) || a.text.localeCompare(b.text));
}
