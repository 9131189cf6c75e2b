// The demo request form's island (home page and /demo): React and the form, nothing else.
import { DemoRequestForm } from "#app/features/leads/demo-request-form.tsx";
import { hydrateIslands } from "./hydrate-islands.tsx";

hydrateIslands("demo-request-form", DemoRequestForm);
