import { renderInvestorDeck } from "#app/features/investor-deck/deck.server.ts";
import { deckFileName } from "#app/features/investor-deck/deck-content.ts";

// The investor presentation (SPEC section 2, /investor-deck opens it). Prerendered into a file at
// build time; the production server sends that file with the same headers (scripts/postbuild.ts).
export async function loader() {
  const pdf = await renderInvestorDeck();
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${deckFileName}"`,
      "Content-Length": String(pdf.length),
    },
  });
}
