import { describe, expect, it } from "vitest";
import { sqlitePathOf } from "./database.server.ts";

// Which database DATABASE_URL names (README, configuration). `sqlite:` was read as a relative path:
// DATABASE_URL=sqlite:/tmp/chk.db made a directory `sqlite:` in the working directory, and a check's
// database was committed from there.
describe("sqlitePathOf", () => {
  it("reads a path, file: and sqlite: as the SQLite file they name", () => {
    expect(sqlitePathOf(undefined)).toBe("./data/app.sqlite");
    expect(sqlitePathOf("/var/lib/app.sqlite")).toBe("/var/lib/app.sqlite");
    expect(sqlitePathOf("file:/tmp/x.db")).toBe("/tmp/x.db");
    expect(sqlitePathOf("file:///tmp/x.db")).toBe("/tmp/x.db");
    expect(sqlitePathOf("sqlite:/tmp/x.db")).toBe("/tmp/x.db");
    expect(sqlitePathOf("SQLITE:///tmp/x.db")).toBe("/tmp/x.db");
    expect(sqlitePathOf("sqlite:data/app.sqlite")).toBe("data/app.sqlite");
  });

  it("names no file for PostgreSQL", () => {
    expect(sqlitePathOf("postgres://app@127.0.0.1/app")).toBeNull();
    expect(sqlitePathOf("postgresql://app@127.0.0.1/app")).toBeNull();
  });
});
