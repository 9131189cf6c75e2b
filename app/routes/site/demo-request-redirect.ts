import { redirect } from "react-router";

// The blog's 'Stay Updated' card links to /demo-request (SPEC section 2): send it to the form.
export function loader() {
  return redirect("/demo#demo", 301);
}
