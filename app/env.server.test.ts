import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server.ts";

describe("parseEnv", () => {
  it("gives the documented defaults", () => {
    expect(parseEnv({})).toEqual({
      NODE_ENV: "production",
      HOST: "0.0.0.0",
      PORT: 3000,
      TRUST_PROXY: 0,
      HSTS: "auto",
      LOG_LEVEL: "info",
    });
  });

  it("treats empty values as unset", () => {
    expect(parseEnv({ PORT: "", PUBLIC_URL: "" }).PORT).toBe(3000);
  });

  it("lists every bad variable at once", () => {
    expect(() => parseEnv({ PORT: "99999", HSTS: "sometimes", PUBLIC_URL: "ftp://x" })).toThrowError(
      /PORT[\s\S]*PUBLIC_URL[\s\S]*HSTS|PORT[\s\S]*HSTS[\s\S]*PUBLIC_URL/,
    );
  });

  it("accepts an https public URL", () => {
    expect(parseEnv({ PUBLIC_URL: "https://www.example.co.uk" }).PUBLIC_URL).toBe(
      "https://www.example.co.uk",
    );
  });
});
