// The public pages that carry a lead form (SPEC section 2: the home page's and the demo page's demo
// request, the investor page's form): the funnel's second step is a visitor who viewed one of them.
export const FORM_PAGES: readonly string[] = ["/", "/demo", "/invest"];

/** The dimension of analytics_daily_counts that counts, per day, the visitors who viewed a form page. */
export const FORM_VISITORS_DIMENSION = "form_visitors";
/** Its only value. */
export const FORM_VISITORS_VALUE = "any";
