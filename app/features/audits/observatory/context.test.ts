import { describe, expect, it } from "vitest";
import { quoted } from "./context.ts";

describe("quoted (a value from the audited site inside an issue)", () => {
  it("cannot end the code span it is shown in", () => {
    expect(quoted("nginx/1.2 `rm -rf`")).toBe("nginx/1.2 'rm -rf'");
  });

  it("keeps stored issues small whatever the site sends", () => {
    const long = quoted("x".repeat(10_000));
    expect(long).toHaveLength(201);
    expect(long.endsWith("…")).toBe(true);
  });

  it("keeps a header value on one line", () => {
    expect(quoted("a\r\nb")).toBe("a b");
  });
});
