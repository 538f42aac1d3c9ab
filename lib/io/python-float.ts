/** Python's float repr (what `json.dumps` writes for a float): shortest round-trip digits, exponent form below
 * 1e-4 and from 1e16 on, `.0` on whole numbers, and Python's names for the non-finite values. */
export function pyFloat(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? "NaN" : n > 0 ? "Infinity" : "-Infinity";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const [mantissa, exponent] = n.toExponential().split("e") as [string, string];
  const exp = Number(exponent);
  if (exp < -4 || exp >= 16) {
    return `${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  const plain = String(n);
  return plain.includes(".") ? plain : `${plain}.0`;
}
