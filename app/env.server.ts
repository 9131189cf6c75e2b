import { z } from "zod";

// Parsed once at start-up: a bad value stops the server with every problem listed, not at first use.
const EnvSchema = z.object({
  NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
  HOST: z.string().min(1).default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Number of reverse proxies in front of the app whose X-Forwarded-* headers are trusted. */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Send Strict-Transport-Security: `auto` when the request arrived over HTTPS, or always/never. */
  HSTS: z.enum(["auto", "always", "off"]).default("auto"),
  LOG_LEVEL: z.enum(["silent", "error", "info"]).default("info"),
});

export type Env = z.infer<typeof EnvSchema>;

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // Treat empty strings as unset so `PORT=` in a .env file falls back to the default.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment configuration:\n${problems.join("\n")}`);
  }
  return result.data;
}
