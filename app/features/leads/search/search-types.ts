// What the back office's search answers (GET /api/admin/search and /admin/search), shared by the
// server and the browser's combobox.

/** The search page's address; the shell's form posts nothing, it GETs this with `q`. */
export const SEARCH_PATH = "/admin/search";
export const SEARCH_API_PATH = "/api/admin/search";
/** The longest search accepted (the lead list's own search has the same bound). */
export const MAX_QUERY_LENGTH = 100;

export type LeadHit = {
  id: number;
  fullName: string;
  company: string;
  email: string;
  status: string;
  createdAt: string;
  href: string;
};
export type PersonHit = { email: string; fullName: string; leads: number; href: string };
export type CompanyHit = { company: string; leads: number; href: string };
export type SearchResults = { query: string; leads: LeadHit[]; people: PersonHit[]; companies: CompanyHit[] };
