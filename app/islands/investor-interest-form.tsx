// The investor interest form's island (/invest): React and the form, nothing else.
import { InvestorInterestForm } from "#app/features/leads/investor-interest-form.tsx";
import { hydrateIslands } from "./hydrate-islands.tsx";

hydrateIslands("investor-interest-form", InvestorInterestForm);
