/** Rounds to the nearest integer, ties to even (Python's round, C's rint, IEEE-754 default). */
export function roundHalfEven(x: number): number {
  const nearest = Math.round(x); // ties toward +∞
  const rounded = Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : nearest;
  return rounded + 0; // −0 becomes 0
}
