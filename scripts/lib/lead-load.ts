// `node scripts/lib/lead-load.ts <base url> <leads per second>`: a second process that stores leads
// through the public API at a steady rate (autocannon's overallRate), each from its own client
// address (the server must trust one proxy), while bench-admin measures the back office. It runs
// until SIGTERM (or an hour), then prints one JSON line with what it sent and how it went.
import { createRequire } from "node:module";

type RequestSetup = { headers?: Record<string, string>; body?: string };
type Result = {
  requests: { average: number; total: number };
  latency: { p99: number };
  "2xx": number;
  non2xx: number;
  errors: number;
};
type Autocannon = (
  options: {
    url: string;
    connections: number;
    duration: number;
    overallRate: number;
    timeout: number;
    requests: { method: string; path: string; setupRequest: (request: RequestSetup) => RequestSetup }[];
  },
  done: (error: Error | null, result: Result) => void,
) => { stop(): void };
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const [url = "", rate = "1000"] = process.argv.slice(2);
let sequence = 0;
const finished = Promise.withResolvers<Result>();
const instance = autocannon(
  {
    url,
    connections: 50,
    duration: 3600,
    overallRate: Number(rate),
    timeout: 10,
    requests: [
      {
        method: "POST",
        path: "/api/demo-request",
        setupRequest: (request) => {
          const n = ++sequence;
          return {
            ...request,
            headers: {
              "content-type": "application/json",
              "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
            },
            body: JSON.stringify({
              fullName: `Load Visitor ${n}`,
              email: `load${n}@bench.example.com`,
              company: `Load ${n % 97} Construction Ltd`,
              phone: "+44 20 7946 0000",
            }),
          };
        },
      },
    ],
  },
  (error, result) => (error ? finished.reject(error) : finished.resolve(result)),
);
process.on("SIGTERM", () => instance.stop());
const result = await finished.promise;
console.log(
  JSON.stringify({
    perSecond: result.requests.average,
    created: result["2xx"],
    failed: result.non2xx + result.errors,
    p99: result.latency.p99,
  }),
);
