/** A next step is a line, not a note (notes take the details). */
export const NEXT_STEP_MAX = 200;
