import { describe, expect, it } from "vitest";
import { preparedStatementName } from "./prepared-statements.ts";

describe("preparedStatementName", () => {
  it("names only marked statements, one name per text, the same name each time", () => {
    expect(preparedStatementName("select 1")).toBeUndefined();
    expect(preparedStatementName("select 1 /* prepared */ ")).toBeUndefined();
    const first = preparedStatementName("/* prepared */ select $1::int");
    const second = preparedStatementName("/* prepared */ select $1::text");
    expect(first).toMatch(/^clausebridge_\d+$/);
    expect(second).toMatch(/^clausebridge_\d+$/);
    expect(second).not.toBe(first);
    expect(preparedStatementName("/* prepared */ select $1::int")).toBe(first);
  });

  it("stops naming new texts past its cap, so a statement built with its values inline cannot grow every connection", () => {
    const given = Array.from({ length: 200 }, (_, i) => preparedStatementName(`/* prepared */ select ${i}`));
    const namedCount = given.filter((name) => name !== undefined).length;
    expect(namedCount).toBeGreaterThan(0);
    expect(namedCount).toBeLessThanOrEqual(64);
    expect(given.at(-1)).toBeUndefined();
    // Texts named before the cap keep their names.
    expect(preparedStatementName("/* prepared */ select 0")).toBe(given[0]);
  });
});
