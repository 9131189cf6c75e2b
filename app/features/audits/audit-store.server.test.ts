import { sql } from "kysely";
import { expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { listSecurityAudits, saveSecurityAudit } from "./audit-store.server.ts";
import { OBSERVATORY_ALGORITHM_VERSION } from "./observatory/score.ts";

// Issue 9 point 13: each stored audit says which Observatory scoring algorithm graded it.
describeEachDatabase("security audit store", (use) => {
  it("keeps the algorithm version of each audit; audits from before migration 008 read as version 4", async () => {
    const { db } = use();
    const saved = await saveSecurityAudit(
      db,
      {
        url: "https://new.example/",
        score: 100,
        uncappedScore: 105,
        grade: "A+",
        algorithmVersion: OBSERVATORY_ALGORITHM_VERSION,
        tests: [],
        issues: [],
      },
      "admin",
    );
    expect(saved.algorithmVersion).toBe(5);
    // A row written the way the app wrote it before the column existed.
    await sql`insert into security_audits (url, created_at, score, uncapped_score, grade, issue_count, issues, tests, created_by)
      values ('https://old.example/', '2026-01-01T00:00:00.000Z', 80, 80, 'B+', 0, '[]', '[]', 'admin')`.execute(
      db,
    );
    const audits = await listSecurityAudits(db);
    expect(audits.map(({ url, algorithmVersion }) => ({ url, algorithmVersion }))).toEqual([
      { url: "https://old.example/", algorithmVersion: 4 },
      { url: "https://new.example/", algorithmVersion: 5 },
    ]);
    await db.deleteFrom("securityAudits").execute();
  });
});
