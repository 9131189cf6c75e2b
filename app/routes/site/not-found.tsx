import { data, Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import type { Route } from "./+types/not-found";

// Any path no other route claims. The loader sets the HTTP status so crawlers see a real 404.
export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ location }) =>
  getMeta({
    title: "404 Page Not Found",
    description: "The page you asked for does not exist.",
    path: location.pathname,
    noIndex: true,
  });

export default function NotFound() {
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center sm:px-6">
      <p className="text-sm font-semibold tracking-wider text-brand uppercase">Error 404</p>
      <h1 className="mt-3 text-4xl font-bold tracking-tight">404 Page Not Found</h1>
      <p className="mt-4 text-lg text-ink-muted">Did you forget to add the page to the router?</p>
      <div className="mt-10 flex flex-wrap justify-center gap-4">
        <Button asChild>
          <Link to="/">Return to Homepage</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/blog">Read the blog</Link>
        </Button>
      </div>
    </section>
  );
}
