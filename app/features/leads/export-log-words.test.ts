import { describe, expect, test } from "vitest";
import { exportFilterWords, exportHeadline } from "./export-log-words.ts";

describe("exportHeadline", () => {
  test("counts the leads with the right plural", () => {
    expect(exportHeadline(1, true)).toBe("Exported 1 lead");
    expect(exportHeadline(3, true)).toBe("Exported 3 leads");
    expect(exportHeadline(1500, false)).toBe("Export stopped after 1,500 leads");
  });
});

describe("exportFilterWords", () => {
  test("names the ticked leads, without the dashboard form's other fields", () => {
    expect(exportFilterWords("intent=bulk&do=status%3Acontacted&ids=4")).toBe("Ticked on the dashboard");
    expect(exportFilterWords("ids=4,9,12&spam=include")).toBe(
      "Ticked on the dashboard; filter: spam included",
    );
  });

  test("says the filter in words and never the search text", () => {
    expect(exportFilterWords("status=contacted&q=%28search%29&spam=only")).toBe(
      "Filter: status Contacted, a search, held spam only",
    );
    expect(exportFilterWords("owner=none&type=investor&from=2026-01-01&channel=organic-search")).toBe(
      "Filter: unassigned, investor interest, from 2026-01-01, channel organic search",
    );
  });

  test("calls an unfiltered export all leads", () => {
    expect(exportFilterWords("all leads")).toBe("All leads");
    expect(exportFilterWords("page=2&sort=company")).toBe("All leads");
  });
});
